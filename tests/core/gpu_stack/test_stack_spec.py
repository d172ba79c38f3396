"""``GpuStackSpec``: validated on creation, every problem at once; defaults from the pinned charts.

Chart facts (nvidia.md section 1): GPU Operator chart ``gpu-operator`` version ``v26.7.0`` (leading ``v``) from
``https://helm.ngc.nvidia.com/nvidia``; device plugin chart ``nvidia-device-plugin`` ``0.20.0`` (no ``v``) from
``https://nvidia.github.io/k8s-device-plugin``; NFD subchart key ``node-feature-discovery`` in the operator chart,
alias ``nfd`` in the plugin chart (sections 2, 3). Neither namespace may be ``default`` (section 8, item 11).
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from gpuready.core.gpu_stack.kinds import CHARTS, STACK_CHARTS, STACK_KINDS, StackKind, stack_kind
from gpuready.core.gpu_stack.kinds.device_plugin import DEVICE_PLUGIN
from gpuready.core.gpu_stack.kinds.dra_driver import DRA_DRIVER
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR
from gpuready.core.gpu_stack.kinds.gpu_operator_dra import GPU_OPERATOR_DRA
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec, NfdMode, stack_spec_problems
from gpuready.errors import SpecError


def test_pinned_charts() -> None:
    assert (GPU_OPERATOR.name, GPU_OPERATOR.version, GPU_OPERATOR.repository) == (
        "gpu-operator", "v26.7.0", "https://helm.ngc.nvidia.com/nvidia",
    )  # fmt: skip
    assert (DEVICE_PLUGIN.name, DEVICE_PLUGIN.version, DEVICE_PLUGIN.repository) == (
        "nvidia-device-plugin", "0.20.0", "https://nvidia.github.io/k8s-device-plugin",
    )  # fmt: skip
    assert (GPU_OPERATOR.nfd_key, DEVICE_PLUGIN.nfd_key) == ("node-feature-discovery", "nfd")
    assert (GPU_OPERATOR.version_prefix, DEVICE_PLUGIN.version_prefix) == ("v", "")
    assert "default" not in (GPU_OPERATOR.namespace, DEVICE_PLUGIN.namespace)
    assert dict(CHARTS) == {"gpu-operator": GPU_OPERATOR, "device-plugin": DEVICE_PLUGIN}
    assert STACK_KINDS == ("gpu-operator", "device-plugin", "dra-driver", "gpu-operator-dra", "none", "external")
    assert (DRA_DRIVER.name, DRA_DRIVER.version, DRA_DRIVER.nfd_key, DRA_DRIVER.advertiser) == (
        "dra-driver-nvidia-gpu", "0.4.0", "", "dra",
    )  # fmt: skip
    assert dict(STACK_CHARTS) == {**CHARTS, "dra-driver": DRA_DRIVER, "gpu-operator-dra": GPU_OPERATOR_DRA}
    # The GPUCluster stack is the operator chart itself, serving DRA pools, and needs a cluster with DRA.
    same = ("name", "version", "repository", "namespace", "nfd_key", "version_prefix", "disable_openapi_validation")
    assert [getattr(GPU_OPERATOR_DRA, f) for f in same] == [getattr(GPU_OPERATOR, f) for f in same]
    assert (GPU_OPERATOR_DRA.advertiser, GPU_OPERATOR_DRA.experimental) == ("dra", True)
    assert GPU_OPERATOR_DRA.cluster_apis == ("resource.k8s.io/v1/DeviceClass",)
    assert [k for k in STACK_KINDS if stack_kind(k).serves_dra] == ["dra-driver", "gpu-operator-dra"]
    assert [k for k in STACK_KINDS if stack_kind(k).chart is None] == ["none", "external"]


@pytest.mark.parametrize(
    ("kind", "namespace", "release", "version", "repository"),
    [
        ("gpu-operator", "gpu-operator", "gpu-operator", "v26.7.0", "https://helm.ngc.nvidia.com/nvidia"),
        ("device-plugin", "nvidia-device-plugin", "nvidia-device-plugin", "0.20.0",
         "https://nvidia.github.io/k8s-device-plugin"),
    ],
)  # fmt: skip
def test_chart_defaults(kind: StackKind, namespace: str, release: str, version: str, repository: str) -> None:
    spec = GpuStackSpec(kind=kind)
    assert spec.installs_chart
    assert spec.chart is CHARTS[kind]
    assert (spec.effective_namespace, spec.effective_release_name, spec.effective_version) == (
        namespace, release, version,
    )  # fmt: skip
    assert spec.effective_repository == repository
    assert spec.timeout_seconds == 900
    assert (spec.nfd, spec.gfd, spec.mig_reboot) == ("deploy", True, True)


def test_overrides_win() -> None:
    spec = GpuStackSpec(
        kind="device-plugin", namespace="gpu", release_name="plugin", chart_version="0.19.3",
        repository="oci://registry.example.com/nvidia", timeout_seconds=7200,
    )  # fmt: skip
    assert (spec.effective_namespace, spec.effective_release_name, spec.effective_version) == (
        "gpu", "plugin", "0.19.3",
    )  # fmt: skip
    assert spec.effective_repository == "oci://registry.example.com/nvidia"


@pytest.mark.parametrize("kind", ["none", "external"])
def test_kinds_without_a_chart(kind: StackKind) -> None:
    spec = GpuStackSpec(kind=kind)
    assert not spec.installs_chart
    assert not spec.runs_gfd
    assert not spec.deploys_nfd
    with pytest.raises(ValueError, match="installs no chart"):
        _ = spec.chart


@pytest.mark.parametrize(
    ("kind", "gfd", "nfd", "runs_gfd", "deploys_nfd"),
    [
        ("gpu-operator", True, "deploy", True, True),
        ("gpu-operator", True, "existing", True, False),
        ("device-plugin", True, "deploy", True, True),
        ("device-plugin", True, "existing", True, False),
        ("device-plugin", False, "deploy", False, False),  # the plugin chart's NFD follows gfd.enabled
        ("device-plugin", False, "existing", False, False),
    ],
)
def test_gfd_and_nfd(kind: StackKind, gfd: bool, nfd: NfdMode, runs_gfd: bool, deploys_nfd: bool) -> None:
    spec = GpuStackSpec(kind=kind, gfd=gfd, nfd=nfd)
    assert spec.runs_gfd is runs_gfd
    assert spec.deploys_nfd is deploys_nfd


VALID: list[dict[str, Any]] = [
    {"kind": "gpu-operator", "chart_version": "v26.3.3"},
    {"kind": "gpu-operator", "chart_version": "v26.7.1-rc.1"},
    {"kind": "device-plugin", "chart_version": "0.19.3"},
    {"kind": "gpu-operator", "namespace": "a"},
    {"kind": "gpu-operator", "namespace": "a" * 63},
    {"kind": "gpu-operator", "release_name": "a" * 53},
    {"kind": "gpu-operator", "repository": "oci://ghcr.io/example/charts"},
    {"kind": "gpu-operator", "timeout_seconds": 900},
    {"kind": "gpu-operator", "timeout_seconds": 7200},
    {"kind": "gpu-operator", "mig_reboot": False},
    {"kind": "device-plugin", "gfd": False},
    {"kind": "device-plugin", "nfd": "existing"},
]


@pytest.mark.parametrize("fields", VALID, ids=lambda f: "-".join(f"{k}={v}" for k, v in f.items())[:60])
def test_valid(fields: dict[str, Any]) -> None:
    spec = GpuStackSpec(**fields)
    assert stack_spec_problems(spec) == []
    for key, value in fields.items():
        assert getattr(spec, key) == value


BAD: list[tuple[str, dict[str, Any], str, str]] = [
    ("unknown-kind", {"kind": "gpu-operater"}, "gpuStack.kind", "unknown GPU stack"),
    ("namespace-default", {"kind": "gpu-operator", "namespace": "default"}, "gpuStack.namespace", "default namespace"),
    ("namespace-upper", {"kind": "gpu-operator", "namespace": "Gpu"}, "gpuStack.namespace", "DNS-1123"),
    ("namespace-64", {"kind": "device-plugin", "namespace": "a" * 64}, "gpuStack.namespace", "DNS-1123"),
    ("namespace-empty", {"kind": "device-plugin", "namespace": ""}, "gpuStack.namespace", "DNS-1123"),
    ("release-54", {"kind": "gpu-operator", "release_name": "a" * 54}, "gpuStack.releaseName", "at most 53"),
    ("release-dot", {"kind": "gpu-operator", "release_name": "gpu.operator"}, "gpuStack.releaseName", "DNS label"),
    ("version-no-v", {"kind": "gpu-operator", "chart_version": "26.7.0"}, "gpuStack.chartVersion", "start with 'v'"),
    ("version-v", {"kind": "device-plugin", "chart_version": "v0.20.0"}, "gpuStack.chartVersion", "no leading 'v'"),
    ("version-word", {"kind": "device-plugin", "chart_version": "stable"}, "gpuStack.chartVersion", "not a chart"),
    ("repo-http", {"kind": "device-plugin", "repository": "http://x.example"}, "gpuStack.repository", "https://"),
    ("repo-file", {"kind": "gpu-operator", "repository": "file:///charts"}, "gpuStack.repository", "oci://"),
    ("timeout-899", {"kind": "gpu-operator", "timeout_seconds": 899}, "gpuStack.timeoutSeconds", "between 900"),
    ("timeout-7201", {"kind": "device-plugin", "timeout_seconds": 7201}, "gpuStack.timeoutSeconds", "and 7200"),
    ("nfd-unknown", {"kind": "gpu-operator", "nfd": "external"}, "gpuStack.nfd", "unknown NFD mode"),
    ("gfd-off-operator", {"kind": "gpu-operator", "gfd": False}, "gpuStack.gfd", "always runs GPU Feature"),
    ("reboot-plugin", {"kind": "device-plugin", "mig_reboot": False}, "gpuStack.migReboot", "has none"),
    ("namespace-none", {"kind": "none", "namespace": "x"}, "gpuStack.namespace", "installs no chart"),
    ("release-external", {"kind": "external", "release_name": "x"}, "gpuStack.releaseName", "installs no chart"),
    ("version-none", {"kind": "none", "chart_version": "0.20.0"}, "gpuStack.chartVersion", "installs no chart"),
    ("repo-external", {"kind": "external", "repository": "https://x"}, "gpuStack.repository", "installs no chart"),
    ("nfd-bogus-none", {"kind": "none", "nfd": "bogus"}, "gpuStack.nfd", ""),
    ("timeout-external", {"kind": "external", "timeout_seconds": 60}, "gpuStack.timeoutSeconds", ""),
]


@pytest.mark.parametrize(("name", "fields", "path", "words"), BAD, ids=[b[0] for b in BAD])
def test_refused(name: str, fields: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        GpuStackSpec(**fields)
    problems = raised.value.problems
    assert any(p.path == path and words in p.problem for p in problems), [str(p) for p in problems]
    (problem,) = [p for p in problems if p.path == path]
    assert problem.value is not None  # the bad value is shown
    assert repr(problem.value) in str(problem)
    assert problem.hint or problem.allowed  # and a way out


def test_every_problem_at_once() -> None:
    with pytest.raises(SpecError) as raised:
        GpuStackSpec(
            kind="device-plugin", namespace="default", release_name="R", chart_version="v0.20.0",
            repository="http://x", timeout_seconds=10, nfd=cast(NfdMode, "maybe"), mig_reboot=False,
        )  # fmt: skip
    assert [p.path for p in raised.value.problems] == [
        "gpuStack.namespace",
        "gpuStack.releaseName",
        "gpuStack.chartVersion",
        "gpuStack.repository",
        "gpuStack.timeoutSeconds",
        "gpuStack.nfd",
        "gpuStack.migReboot",
    ]
    assert str(raised.value).startswith("7 problems:")


def test_unknown_kind_stops_at_the_kind() -> None:
    with pytest.raises(SpecError) as raised:
        GpuStackSpec(kind="operator", namespace="default")
    (problem,) = raised.value.problems
    assert problem.path == "gpuStack.kind"
    assert problem.allowed == STACK_KINDS


def test_problem_paths_take_a_prefix() -> None:
    spec = GpuStackSpec(kind="gpu-operator")
    object.__setattr__(spec, "namespace", "default")
    assert [p.path for p in stack_spec_problems(spec, "gpuready:gpuStack")] == ["gpuready:gpuStack.namespace"]
