"""A foreign node's own labels decide what it should advertise: device-plugin config, MIG layout, GKE, GFD.

Facts: gpuready's device-plugin config keys (``core.sharing_plan.device_plugin_config_name``); mig-parted's
named layouts (upstream/mig-parted/config-default.v0.15.0.yaml: ``all-1g.5gb`` is 7 per A100-40GB,
``all-balanced`` 2x1g.5gb + 1x2g.10gb + 1x3g.20gb); GKE advertises MIG partitions and time-sharing as
``nvidia.com/gpu`` (clouds.md section 4.2); p4d.24xlarge has 8 A100-40GB, g6.xlarge 1 L4, g6.12xlarge 4 L4,
a2-highgpu-1g 1 A100-40GB (the catalog).
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.pool_parts import GpuSharing
from gpuready.core.sharing_plan import device_plugin_config_name
from gpuready.verify.audit import audit
from gpuready.verify.checks import check_node
from gpuready.verify.expectations import infer_expectation
from gpuready.verify.inference import infer_accelerator
from gpuready.verify.node_sharing import ConfigName, NodeSharing, node_sharing, parse_config_name
from gpuready.verify.nodes import NodeView
from tests.verify.conftest import GPU_TAINT, view

A100 = GPU_MODELS["a100"]


@pytest.mark.parametrize(
    "sharing",
    [
        GpuSharing(mode="time-slicing", replicas=4),
        GpuSharing(mode="mps", replicas=2, rename_by_default=True),
        GpuSharing(mode="time-slicing", replicas=48, rename_by_default=True, fail_requests_greater_than_one=True),
        GpuSharing(mode="mps", replicas=3, fail_requests_greater_than_one=False),
    ],
    ids=device_plugin_config_name,
)
def test_config_names_gpuready_writes_read_back(sharing: GpuSharing) -> None:
    name = device_plugin_config_name(sharing)
    assert parse_config_name(name) == ConfigName(sharing.mode, sharing.replicas, sharing.rename_by_default)


@pytest.mark.parametrize("name", ["tesla-t4", "time-slicing-x1", "time-slicing-4", "mps-x4-other", "", "MPS-x4"])
def test_other_config_names_say_nothing(name: str) -> None:
    assert parse_config_name(name) is None


class Case(NamedTuple):
    labels: dict[str, str]
    model: str | None
    shows_partitions: bool
    expected: NodeSharing


DP = "nvidia.com/device-plugin.config"
CASES: dict[str, Case] = {
    "no-labels": Case({}, "l4", False, NodeSharing()),
    "time-slicing-config": Case(
        {DP: "time-slicing-x4"}, "l4", False,
        NodeSharing(mode="time-slicing", replicas=4, renamed=False, evidence=(f"{DP}=time-slicing-x4",)),
    ),
    "renamed-mps-config": Case(
        {DP: "mps-x2-renamed-lenient"}, "l4", False,
        NodeSharing(mode="mps", replicas=2, renamed=True, evidence=(f"{DP}=mps-x2-renamed-lenient",)),
    ),
    "config-beats-gfd": Case(  # GFD's labels are what was applied, not what was asked: not evidence here
        {DP: "time-slicing-x4", "nvidia.com/gpu.replicas": "2", "nvidia.com/gpu.sharing-strategy": "mps"}, "l4", False,
        NodeSharing(mode="time-slicing", replicas=4, renamed=False, evidence=(f"{DP}=time-slicing-x4",)),
    ),
    "own-config-name-then-gfd": Case(
        {DP: "tesla-t4", "nvidia.com/gpu.replicas": "8", "nvidia.com/gpu.sharing-strategy": "time-slicing"}, "t4",
        False,
        NodeSharing(mode="time-slicing", replicas=8, evidence=(
            f"{DP}=tesla-t4", "nvidia.com/gpu.sharing-strategy=time-slicing", "nvidia.com/gpu.replicas=8",
        )),
    ),
    "gfd-unshared": Case({"nvidia.com/gpu.replicas": "1", "nvidia.com/gpu.sharing-strategy": "none",
                          "gpuready.io/sharing": "none"}, "l4", False, NodeSharing()),
    "gke-mps": Case(
        {"cloud.google.com/gke-gpu-sharing-strategy": "mps", "cloud.google.com/gke-max-shared-clients-per-gpu": "3"},
        "l4", False,
        NodeSharing(mode="mps", replicas=3, evidence=(
            "cloud.google.com/gke-gpu-sharing-strategy=mps", "cloud.google.com/gke-max-shared-clients-per-gpu=3",
        )),
    ),
    "gke-partition": Case(
        {"cloud.google.com/gke-gpu-partition-size": "1g.5gb"}, "a100", False,
        NodeSharing(mig=True, mig_layout={"1g.5gb": 7}, evidence=("cloud.google.com/gke-gpu-partition-size=1g.5gb",)),
    ),
    "mig-config-single-by-default": Case(
        {"nvidia.com/mig.config": "all-1g.5gb"}, "a100", False,
        NodeSharing(mig=True, mig_layout={"1g.5gb": 7}, evidence=("nvidia.com/mig.config=all-1g.5gb",)),
    ),
    "mig-config-mixed-shown": Case(
        {"nvidia.com/mig.config": "all-balanced"}, "a100", True,
        NodeSharing(mig=True, mig_layout=dict(A100.mig.balanced) if A100.mig else None, mig_strategy="mixed",
                    evidence=("nvidia.com/mig.config=all-balanced",)),
    ),
    "mig-config-gfd-strategy": Case(
        {"nvidia.com/mig.config": "all-3g.20gb", "nvidia.com/mig.strategy": "mixed"}, "a100", False,
        NodeSharing(mig=True, mig_layout={"3g.20gb": 2}, mig_strategy="mixed",
                    evidence=("nvidia.com/mig.config=all-3g.20gb", "nvidia.com/mig.strategy=mixed")),
    ),
    "mig-custom-layout": Case({"nvidia.com/mig.config": "gpuready-train"}, "a100", False,
                              NodeSharing(mig=True, evidence=("nvidia.com/mig.config=gpuready-train",))),
    "mig-unknown-gpu": Case({"nvidia.com/mig.config": "all-1g.5gb"}, None, False,
                            NodeSharing(mig=True, evidence=("nvidia.com/mig.config=all-1g.5gb",))),
    "mig-disabled": Case({"nvidia.com/mig.config": "all-disabled"}, "a100", False, NodeSharing()),
    "gpuready-mig-label": Case({"gpuready.io/sharing": "mig"}, "a100", False,
                               NodeSharing(mig=True, evidence=("gpuready.io/sharing=mig",))),
}  # fmt: skip


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_node_sharing_reads_the_labels(case: Case) -> None:
    model = GPU_MODELS[case.model] if case.model else None
    assert node_sharing(case.labels, model, shows_partitions=case.shows_partitions) == case.expected


class Expected(NamedTuple):
    instance_type: str
    labels: dict[str, str]
    advertised: dict[str, int]
    allocatable: dict[str, int]
    """What the node should advertise, from its labels."""
    codes: list[str]
    """Resource findings (accelerator and taint findings left out)."""


def _node(case: Expected) -> NodeView:
    return view("n", labels={"node.kubernetes.io/instance-type": case.instance_type, **case.labels},
                taints=(GPU_TAINT,), capacity=case.advertised)  # fmt: skip


EXPECTATIONS: dict[str, Expected] = {
    "time-slicing-applied": Expected("g6.xlarge", {DP: "time-slicing-x4"}, {"nvidia.com/gpu": 4},
                                     {"nvidia.com/gpu": 4}, []),
    "time-slicing-not-applied": Expected("g6.xlarge", {DP: "time-slicing-x4"}, {"nvidia.com/gpu": 1},
                                         {"nvidia.com/gpu": 4}, ["sharing-not-applied"]),
    "renamed-not-applied": Expected("g6.12xlarge", {DP: "mps-x2-renamed"}, {"nvidia.com/gpu": 4},
                                    {"nvidia.com/gpu.shared": 8}, ["sharing-not-applied"]),
    "gfd-says-unshared": Expected("g6.xlarge", {DP: "time-slicing-x4", "nvidia.com/gpu.replicas": "1"},
                                  {"nvidia.com/gpu": 4}, {"nvidia.com/gpu": 4}, ["sharing-not-applied"]),
    "mig-single-not-applied": Expected("p4d.24xlarge", {"nvidia.com/mig.config": "all-1g.5gb"},
                                       {"nvidia.com/gpu": 8}, {"nvidia.com/gpu": 56}, ["mig-resources-mismatch"]),
    "mig-mixed-applied": Expected("p4d.24xlarge", {"nvidia.com/mig.config": "all-3g.20gb",
                                                   "nvidia.com/mig.strategy": "mixed"},
                                  {"nvidia.com/mig-3g.20gb": 16}, {"nvidia.com/mig-3g.20gb": 16}, []),
    "mig-mixed-not-applied": Expected("p4d.24xlarge", {"nvidia.com/mig.config": "all-3g.20gb",
                                                       "nvidia.com/mig.strategy": "mixed"},
                                      {"nvidia.com/gpu": 8}, {"nvidia.com/mig-3g.20gb": 16},
                                      ["mig-resources-mismatch"]),
    "gke-partition-applied": Expected("a2-highgpu-1g", {"cloud.google.com/gke-gpu-partition-size": "1g.5gb"},
                                      {"nvidia.com/gpu": 7}, {"nvidia.com/gpu": 7}, []),
    "unshared": Expected("g6.xlarge", {}, {"nvidia.com/gpu": 1}, {"nvidia.com/gpu": 1}, []),
}  # fmt: skip
RESOURCE_CODES = {"sharing-not-applied", "mig-resources-mismatch", "allocatable-mismatch", "gpus-not-advertised"}


@pytest.mark.parametrize("case", EXPECTATIONS.values(), ids=EXPECTATIONS.keys())
def test_a_foreign_node_is_checked_against_what_its_labels_ask_for(case: Expected) -> None:
    node = _node(case)
    expectation = infer_expectation(node, infer_accelerator(node))
    assert dict(expectation.allocatable) == case.allocatable
    found = check_node(node, expectation)
    assert [x.code for x in found if x.code in RESOURCE_CODES] == case.codes
    for finding in found:
        if finding.code in RESOURCE_CODES:  # the cause names the label that asked for it
            assert next(iter(case.labels)) in finding.cause or next(iter(case.labels)) in finding.message


def test_check_no_longer_calls_an_unapplied_config_ok() -> None:
    node = _node(EXPECTATIONS["time-slicing-not-applied"])
    (result,) = audit([node], {}).results
    assert result.status == "errors"
    finding = next(x for x in result.findings if x.code == "sharing-not-applied")
    assert finding.message == "allocatable nvidia.com/gpu: wrong count; got 1, expected 4"
    assert finding.cause.startswith(
        "the node's labels ask for it (nvidia.com/device-plugin.config=time-slicing-x4), but the node advertises one "
        "unit per physical GPU instead of 4 per GPU"
    )
    assert "kubectl rollout restart" in finding.fix
