"""``gpuready:gpuStack`` through the REAL stack program, offline: bad values are refused with their path and words
before a single resource registers; each example stack installs (or does not install) its GPU stack and exports
what it did.

The program under ``stacks/`` runs under the mock runtime (``gpuready.offline.runner.run_program``) with an
example stack's config, ``gpuready:gpuStack`` replaced where a case says so (the same way as
``test_bad_input_corpus_program.py``; the pure parser's corpus is ``tests/core/config_model/bad_gpu_stacks.yaml``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pulumi
import pytest

from gpuready.offline.capture import CapturedRun, RegisteredResource
from tests.stacks.program_runs import (
    ROOT,
    RecordingMonitor,
    assert_nothing_registered,
    config_bag,
    config_error_of,
    run_stack,
)

KEY = "gpuready:gpuStack"
NAMESPACE = "kubernetes:core/v1:Namespace"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
RESOURCE_QUOTA = "kubernetes:core/v1:ResourceQuota"
RELEASE = "kubernetes:helm.sh/v3:Release"
K8S_PROVIDER = "pulumi:providers:kubernetes"
OPERATOR = "gpuready:index:GpuOperator"
DEVICE_PLUGIN = "gpuready:index:NvidiaDevicePlugin"
POOL_CHILD_TYPES = {
    "eks": "aws:eks/nodeGroup:NodeGroup",
    "aks": "azure-native:containerservice:AgentPool",
    "gke": "gcp:container/nodePool:NodePool",
}


def gpu_stack_bag(stack: str, gpu_stack: str | None = None, pools: str | None = None) -> dict[str, str]:
    """The engine's config bag of an example stack, ``gpuready:gpuStack`` (and the pools) replaced when given."""
    overrides = [f"{KEY}={gpu_stack}"] if gpu_stack is not None else []
    return config_bag(stack, overrides + ([f"gpuready:nodePools={pools}"] if pools is not None else []))


# --- bad values ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BadCase:
    stack: str
    gpu_stack: str
    """The value exactly as a user writes it in the stack file (YAML text)."""
    expect: Sequence[tuple[str, str]]
    """(path, words): each must be one problem's exact path and a substring of its message."""
    pools: str | None = None
    """``gpuready:nodePools`` replaced (YAML text), when the case is about the stack and its pools."""


MPS_AND_MIXED_MIG = (
    "[{name: l4-mps, instanceType: g6.xlarge, minSize: 0, maxSize: 2, sharing: {mode: mps, replicas: 2}},"
    " {name: h100-mig, instanceType: p5.48xlarge, minSize: 0, maxSize: 1,"
    " sharing: {mode: mig, profile: 1g.10gb, strategy: mixed}}]"
)
AKS_OPERATOR_DRIVER_TWO_IMAGES = (
    "[{name: t4ubuntu, instanceType: Standard_NC4as_T4_v3, minSize: 0, maxSize: 2, driver: operator},"
    " {name: t4azl, instanceType: Standard_NC4as_T4_v3, minSize: 0, maxSize: 2, driver: operator,"
    " image: azurelinux}]"
)

EKS_KARPENTER_AND_AUTO_MODE = (
    "[{name: l4-shared, provisioner: karpenter, instanceType: g6.12xlarge, minSize: 0, maxSize: 4,"
    " sharing: {mode: time-slicing, replicas: 4}},"
    " {name: l40s-auto, provisioner: eks-auto-mode, instanceType: g6e.12xlarge, minSize: 0, maxSize: 2}]"
)


BAD_CASES: dict[str, BadCase] = {
    "unknown-kind": BadCase(
        "eks-dev", "{kind: gpu-operater}", [(f"{KEY}.kind", "unknown GPU stack")]
    ),
    "unknown-kind-as-a-string": BadCase("aks-dev", "operator", [(f"{KEY}.kind", "unknown GPU stack")]),
    "unknown-key": BadCase(
        "eks-dev", "{kind: gpu-operator, nampespace: gpu}", [(f"{KEY}.nampespace", "unknown key")]
    ),
    "timeout-300": BadCase(
        "eks-dev",
        "{kind: gpu-operator, timeoutSeconds: 300}",
        [(f"{KEY}.timeoutSeconds", "must be between 900 and 7200 seconds")],
    ),
    "timeout-not-a-number": BadCase(
        "gke-operator", "{kind: gpu-operator, timeoutSeconds: 15m}", [(f"{KEY}.timeoutSeconds", "whole number")]
    ),
    "namespace-default": BadCase(
        "aks-dev",
        "{kind: device-plugin, namespace: default}",
        [(f"{KEY}.namespace", "node agents never go in the default namespace")],
    ),
    "namespace-not-a-dns-label": BadCase(
        "gke-operator", "{kind: gpu-operator, namespace: GPU_Operator}", [(f"{KEY}.namespace", "DNS-1123 label")]
    ),
    "operator-version-without-v": BadCase(
        "eks-dev", "{kind: gpu-operator, chartVersion: 26.7.0}", [(f"{KEY}.chartVersion", "start with 'v'")]
    ),
    "plugin-version-with-v": BadCase(
        "aks-dev", "{kind: device-plugin, chartVersion: v0.20.0}", [(f"{KEY}.chartVersion", "no leading 'v'")]
    ),
    "plain-http-repository": BadCase(
        "aks-dev",
        "{kind: device-plugin, repository: 'http://nvidia.github.io/k8s-device-plugin'}",
        [(f"{KEY}.repository", "must be an https:// Helm repository")],
    ),
    "gfd-off-under-the-operator": BadCase(
        "eks-dev", "{kind: gpu-operator, gfd: false}", [(f"{KEY}.gfd", "always runs GPU Feature Discovery")]
    ),
    "none-with-a-namespace": BadCase(
        "gke-dev", "{kind: none, namespace: gpu-operator}", [(f"{KEY}.namespace", "installs no chart")]
    ),
    "not-yaml": BadCase("eks-dev", "{kind: [gpu-operator", [(KEY, "is not valid YAML")]),
    "device-plugin-on-eks-dev": BadCase(
        "eks-dev",
        "device-plugin",
        [
            (f"{KEY}.kind", "pool 'a10g-br' (eks bottlerocket, driver: cloud): Bottlerocket NVIDIA runs its own"),
            (f"{KEY}.kind", "pool 'h100-mig' asks for a MIG layout, which only the GPU Operator's MIG manager"),
        ],
    ),
    "gpu-operator-on-gke-dev": BadCase(
        "gke-dev",
        "gpu-operator",
        [
            (f"{KEY}.kind", f"pool {pool!r} (gke cos, driver: cloud): GKE installs the driver and runs its own")
            for pool in ("l4-ts", "a100-mig", "t4-mps")
        ],
    ),
    "external-on-gke-dev": BadCase(
        "gke-dev", "{kind: external}", [(f"{KEY}.kind", "pool 'l4-ts' (gke cos, driver: cloud): GKE installs")]
    ),
    "none-on-aks-dev": BadCase(
        "aks-dev",
        "none",
        [
            (f"{KEY}.kind", f"pool {pool!r} (aks ubuntu, driver: cloud): the AKS Ubuntu image has the driver but no")
            for pool in ("t4shared", "a100mig", "h100spot")
        ],
    ),
    "device-plugin-on-gke-operator": BadCase(
        "gke-operator",
        "{kind: device-plugin}",
        [(f"{KEY}.kind", "pool 'h100-mig' (gke ubuntu, driver: operator): the device-plugin chart installs no driver")],
    ),
    "values-override-the-tolerations": BadCase(
        "eks-dev",
        "{kind: gpu-operator, values: {daemonsets: {tolerations: []}}}",
        [(f"{KEY}.values.daemonsets.tolerations", "gpuready decides 'daemonsets.tolerations'")],
    ),
    "values-unknown-key": BadCase(
        "aks-dev",
        "{kind: device-plugin, values: {imagePullSecret: [{name: regcred}]}}",
        [(f"{KEY}.values.imagePullSecret", "unknown key: the nvidia-device-plugin chart has no value")],
    ),
    "values-override-the-runtime-class-aks-sets": BadCase(
        "aks-dev",
        "{kind: gpu-operator, values: {operator: {runtimeClass: nvidia}}}",
        [(f"{KEY}.values.operator.runtimeClass", "the cloud's runtime class for its own driver")],
    ),
    "monitoring-with-the-device-plugin": BadCase(
        "aks-dev", "{kind: device-plugin, monitoring: true}", [(f"{KEY}.monitoring", "runs no DCGM exporter")]
    ),
    "mps-beside-mig-mixed": BadCase(
        "eks-dev",
        "gpu-operator",
        [("gpuready:nodePools", "refuses MPS with --mig-strategy=mixed")],
        pools=MPS_AND_MIXED_MIG,
    ),
    "operator-driver-on-two-os-images": BadCase(
        "aks-dev",
        "gpu-operator",
        [("gpuready:nodePools", "builds it for one OS image, taken from the first GPU node")],
        pools=AKS_OPERATOR_DRIVER_TWO_IMAGES,
    ),
    # Elastic pools (issue #14): the provisioner decides who brings driver and device plugin.
    "gpu-operator-on-compute-classes": BadCase(
        "gke-compute-class",
        "gpu-operator",
        [(f"{KEY}.kind", "pool 'h100-train' (gke cos, driver: cloud, provisioner: compute-class): GKE installs the "
          "driver and runs its own device plugin")],
    ),
    "device-plugin-on-nap-pools-without-the-aks-driver": BadCase(
        "aks-nap",
        "device-plugin",
        [(f"{KEY}.kind", "pool 't4shared' (aks ubuntu, driver: operator, provisioner: nap): the device-plugin chart "
          "installs no driver")],
    ),
    "device-plugin-beside-eks-auto-mode": BadCase(
        "eks-karpenter",
        "device-plugin",
        [(f"{KEY}.kind", "pool 'l40s-auto' (eks al2023, driver: cloud, provisioner: eks-auto-mode): EKS Auto Mode "
          "runs its own NVIDIA driver and device plugin")],
        pools=EKS_KARPENTER_AND_AUTO_MODE,
    ),
}  # fmt: skip


@pytest.mark.parametrize("case_id", list(BAD_CASES), ids=list(BAD_CASES))
def test_a_bad_gpu_stack_is_refused_before_anything_registers(monitors: list[RecordingMonitor], case_id: str) -> None:
    case = BAD_CASES[case_id]
    with pytest.raises(pulumi.RunError) as info:
        run_stack(case.stack, gpu_stack_bag(case.stack, case.gpu_stack, case.pools))
    error = config_error_of(info.value)
    assert error is not None, f"no ConfigError in the __cause__ chain of {info.value!r}"
    rendered = "\n".join(map(str, error.problems))
    for path, words in case.expect:
        assert any(p.path == path and words in p.problem for p in error.problems), f"{path}: {words}\n{rendered}"
    assert all(p.path.startswith("gpuready:") for p in error.problems), rendered
    assert str(info.value).startswith("invalid gpuready config:\n")
    # Nothing registered: the run's root stack at most (how the pool corpus test counts it too).
    assert_nothing_registered(monitors, case.stack)


def test_the_example_stacks_are_the_ones_the_cases_use() -> None:
    stacks = {p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml")}
    used = {"eks-dev", "aks-dev", "gke-dev", "gke-operator", "eks-karpenter", "gke-compute-class", "aks-nap"}
    assert {case.stack for case in BAD_CASES.values()} == used <= stacks


# --- the example stacks ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoodStack:
    component: str | None
    children: Mapping[str, int]
    """Resource type -> count under the GPU stack component."""
    export: Mapping[str, Any]
    """The exported ``gpuStack`` output."""


EKS_AMI = "GPU Operator; driver and toolkit from the EKS AL2023 NVIDIA image"
GKE_OWN = "GKE's driver and device plugin (sharing and MIG on the node pool)"
AKS_PLUGIN = "device plugin; driver and toolkit from the AKS Ubuntu image"
GOOD_STACKS: dict[str, GoodStack] = {
    "eks-dev": GoodStack(
        OPERATOR,
        {NAMESPACE: 1, CONFIG_MAP: 1, RELEASE: 1},  # all-balanced needs no mig-parted config of its own
        {
            "kind": "gpu-operator", "release": "gpu-operator", "chart": "gpu-operator", "version": "v26.7.0",
            "namespace": "gpu-operator",
            "pools": {
                "l4-shared": EKS_AMI,
                "h100-mig": EKS_AMI,
                "a10g-br": "GPU Operator for GFD, DCGM exporter and validation; driver, toolkit, device plugin and MIG "
                "manager stay Bottlerocket's (nvidia.com/gpu.deploy.*=false on the nodes)",
            },
        },
    ),
    "aks-dev": GoodStack(
        DEVICE_PLUGIN,
        {NAMESPACE: 1, CONFIG_MAP: 1, RELEASE: 1},
        {
            "kind": "device-plugin", "release": "nvidia-device-plugin", "chart": "nvidia-device-plugin",
            "version": "0.20.0", "namespace": "nvidia-device-plugin",
            "pools": {"t4shared": AKS_PLUGIN, "a100mig": AKS_PLUGIN, "h100spot": AKS_PLUGIN},
        },
    ),
    "gke-dev": GoodStack(
        None, {}, {"kind": "none", "pools": {"l4-ts": GKE_OWN, "a100-mig": GKE_OWN, "t4-mps": GKE_OWN}}
    ),
    "gke-operator": GoodStack(
        OPERATOR,
        {NAMESPACE: 1, CONFIG_MAP: 2, RESOURCE_QUOTA: 1, RELEASE: 1},  # plugin + mig-parted configs; GKE's quota
        {
            "kind": "gpu-operator", "release": "gpu-operator", "chart": "gpu-operator", "version": "v26.7.0",
            "namespace": "gpu-operator",
            "pools": {
                "l4-ts": "GPU Operator installs driver and toolkit",
                "h100-mig": "GPU Operator installs driver and toolkit",
            },
        },
    ),
}  # fmt: skip
TIMEOUTS = {"eks-dev": 1200.0, "aks-dev": 900.0, "gke-operator": 1800.0}
"""``timeoutSeconds`` in each example stack (the default 900 s where it says none)."""


def _one(run: CapturedRun, type_: str) -> RegisteredResource:
    found = [r for r in run.resources if r.type == type_]
    assert len(found) == 1, [r.name for r in found]
    return found[0]


@pytest.mark.parametrize("stack", list(GOOD_STACKS))
def test_example_stack_installs_its_gpu_stack_and_exports_it(stack: str) -> None:
    expected = GOOD_STACKS[stack]
    run = run_stack(stack, gpu_stack_bag(stack))

    assert run.outputs["gpuStack"] == expected.export
    types = Counter(r.type for r in run.resources)
    if expected.component is None:
        assert not [t for t in types if t.startswith("kubernetes:") or t in (OPERATOR, DEVICE_PLUGIN, K8S_PROVIDER)]
        return
    other = DEVICE_PLUGIN if expected.component == OPERATOR else OPERATOR
    assert (types[expected.component], types[other], types[RELEASE]) == (1, 0, 1)
    component = _one(run, expected.component)
    assert component.parent == run.stack_urn and not component.custom
    children = [r for r in run.resources if r.parent == component.urn]
    assert Counter(r.type for r in children) == expected.children
    # Every child on the stack's one Kubernetes provider.
    provider = _one(run, K8S_PROVIDER)
    assert {r.provider for r in children} == {f"{provider.urn}::{provider.name}_id"}
    # The release: the export's chart, in its namespace, after the namespace, its objects and every pool.
    release = _one(run, RELEASE)
    export = expected.export
    assert (release.inputs["name"], release.inputs["chart"], release.inputs["version"]) == (
        export["release"],
        export["chart"],
        export["version"],
    )
    assert release.inputs["namespace"] == export["namespace"]
    assert release.inputs["timeout"] == TIMEOUTS[stack]
    assert (release.inputs["atomic"], release.inputs["skipAwait"], release.inputs["createNamespace"]) == (
        False,
        False,
        False,
    )
    namespace = _one(run, NAMESPACE) if stack != "eks-dev" else next(c for c in children if c.type == NAMESPACE)
    assert namespace.inputs["metadata"]["name"] == export["namespace"]
    objects = [c.urn for c in children if c.type not in (NAMESPACE, RELEASE)]
    pools = [r.urn for r in run.resources if r.type == POOL_CHILD_TYPES[stack[:3]]]
    assert len(pools) == len(export["pools"])
    assert {namespace.urn, *objects, *pools} <= set(release.dependencies)
    # The config maps the values name are the ones registered beside the release.
    names = {c.inputs["metadata"]["name"] for c in children if c.type == CONFIG_MAP}
    values = release.inputs["values"]
    named = {values["devicePlugin"]["config"]["name"]} if expected.component == OPERATOR else {values["config"]["name"]}
    if "config" in values.get("migManager", {}):
        named.add(values["migManager"]["config"]["name"])
    assert named == names


def test_eks_dev_operator_values_keep_the_ami_driver_and_cover_every_pool() -> None:
    values = _one(run_stack("eks-dev", gpu_stack_bag("eks-dev")), RELEASE).inputs["values"]
    assert (values["driver"], values["toolkit"]) == ({"enabled": False}, {"enabled": False})
    assert values["mig"] == {"strategy": "mixed"}
    assert values["migManager"]["enabled"] is True
    assert values["node-feature-discovery"]["worker"]["nodeSelector"] == {"gpuready.io/gpu-pool": "true"}


def test_gke_operator_values_install_the_driver() -> None:
    run = run_stack("gke-operator", gpu_stack_bag("gke-operator"))
    values = _one(run, RELEASE).inputs["values"]
    assert (values["driver"]["enabled"], values["toolkit"]["enabled"]) == (True, True)
    assert values["driver"]["upgradePolicy"]["maxUnavailable"] == "1"
    assert values["operator"] == {"upgradeCRD": True}
    assert values["toolkit"]["env"] == [{"name": "RUNTIME_CONFIG_SOURCE", "value": "file"}]
    quota = _one(run, RESOURCE_QUOTA)
    assert quota.inputs["metadata"]["namespace"] == "gpu-operator"


def test_aks_dev_plugin_values_tolerate_the_spot_taint() -> None:
    values = _one(run_stack("aks-dev", gpu_stack_bag("aks-dev")), RELEASE).inputs["values"]
    assert {"key": "kubernetes.azure.com/scalesetpriority", "operator": "Exists", "effect": "NoSchedule"} in values[
        "tolerations"
    ]
    assert values["gfd"] == {"enabled": True}
    assert values["migStrategy"] == "mixed"


@pytest.mark.parametrize(
    ("stack", "gpu_stack", "component", "namespace"),
    [
        ("eks-dev", "{kind: gpu-operator, namespace: gpu-system, nfd: existing}", OPERATOR, "gpu-system"),
        ("aks-dev", "{kind: gpu-operator}", OPERATOR, "gpu-operator"),
        ("aks-dev", "{kind: device-plugin, gfd: false, releaseName: nvdp}", DEVICE_PLUGIN, "nvidia-device-plugin"),
    ],
    ids=["eks-operator-custom-namespace", "aks-operator", "aks-plugin-without-gfd"],
)
def test_other_good_gpu_stacks_install(stack: str, gpu_stack: str, component: str, namespace: str) -> None:
    run = run_stack(stack, gpu_stack_bag(stack, gpu_stack))
    assert len([r for r in run.resources if r.type == component]) == 1
    release = _one(run, RELEASE)
    assert release.inputs["namespace"] == namespace == run.outputs["gpuStack"]["namespace"]
    assert run.outputs["gpuStack"]["release"] == release.inputs["name"]
