"""The GPU Operator values of the GPUCluster stack (``gpu-operator-dra``), table-driven, and its plan note."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from gpuready.core.gpu_stack import owned_values
from gpuready.core.gpu_stack.kinds.gpu_operator_dra import (
    GPU_CLUSTER_NAME,
    GPU_OPERATOR_DRA,
    gpu_cluster_values,
    release_note,
)
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint

L4 = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.12xlarge", min_size=0, max_size=2, advertise="dra")
TEAM = Taint(key="team", value="ml", effect="NoExecute")
A10G = GpuPoolSpec(
    cloud="eks", name="a10g", instance_type="g5.2xlarge", min_size=0, max_size=2, advertise="dra", taints=(TEAM,)
)
GPU_TOLERATION = {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}
TEAM_TOLERATION = {"key": "team", "operator": "Exists", "effect": "NoExecute"}
NFD_ON_DRA_POOLS = {"gpuready.io/gpu-pool": "true", "gpuready.io/advertise": "dra"}


@pytest.mark.parametrize(
    ("pools", "settings", "expected"),
    [
        ((L4,), {}, {"nfd": {"enabled": True}, "tolerations": [GPU_TOLERATION], "nfd_selector": NFD_ON_DRA_POOLS}),
        ((L4, A10G), {}, {"nfd": {"enabled": True}, "tolerations": [GPU_TOLERATION, TEAM_TOLERATION],
                          "nfd_selector": NFD_ON_DRA_POOLS}),
        ((L4,), {"nfd": "existing"}, {"nfd": {"enabled": False}, "tolerations": [GPU_TOLERATION],
                                      "nfd_selector": None}),
        ((L4,), {"monitoring": True}, {"nfd": {"enabled": True}, "tolerations": [GPU_TOLERATION],
                                       "nfd_selector": NFD_ON_DRA_POOLS,
                                       "dcgmExporter": {"enabled": True, "serviceMonitor": {"enabled": True}}}),
        ((L4,), {"monitoring": False}, {"nfd": {"enabled": True}, "tolerations": [GPU_TOLERATION],
                                        "nfd_selector": NFD_ON_DRA_POOLS,
                                        "dcgmExporter": {"serviceMonitor": {"enabled": False}}}),
    ],
    ids=["one-pool", "two-pools-tainted", "existing-nfd", "monitoring-on", "monitoring-off"],
)  # fmt: skip
def test_values(pools: tuple[GpuPoolSpec, ...], settings: Mapping[str, Any], expected: Mapping[str, Any]) -> None:
    spec = GpuStackSpec(kind="gpu-operator-dra", cluster_version="1.34", **settings)
    values = gpu_cluster_values(pools, spec)
    assert values["clusterPolicy"] == {"deployCR": False}
    assert values["gpuCluster"] == {"deployCR": True}
    assert values["driver"] == {"enabled": False}
    assert values["draDriver"] == {"computeDomains": {"enabled": False}}
    assert values["operator"] == {"upgradeCRD": True}
    assert values["nfd"] == expected["nfd"]
    assert values["daemonsets"] == {"tolerations": expected["tolerations"]}
    worker = values.get("node-feature-discovery", {}).get("worker")
    if expected["nfd_selector"] is None:
        assert worker is None
    else:
        assert worker == {"nodeSelector": expected["nfd_selector"], "tolerations": expected["tolerations"]}
    assert values.get("dcgmExporter") == expected.get("dcgmExporter")
    # Nothing the GPUCluster does not read: no device plugin, MIG manager, toolkit or GFD settings.
    assert not {"devicePlugin", "migManager", "toolkit", "gfd", "mig"} & set(values)


@pytest.mark.parametrize(
    ("chart", "values", "noted"),
    [
        ("gpu-operator", {"gpuCluster": {"deployCR": True}}, True),
        ("gpu-operator", {"gpuCluster": {"deployCR": False}}, False),
        ("gpu-operator", {"driver": {"enabled": False}}, False),
        ("gpu-operator", {"gpuCluster": "yes"}, False),
        ("nvidia-device-plugin", {"gpuCluster": {"deployCR": True}}, False),
    ],
)
def test_release_note(chart: str, values: Mapping[str, Any], noted: bool) -> None:
    note = release_note(chart, values)
    assert (note is not None) is noted
    if note is not None:
        assert f"kubectl delete gpuclusters.nvidia.com {GPU_CLUSTER_NAME}" in note
        assert "helm.sh/resource-policy: keep" in note


@pytest.mark.parametrize("settings", [{}, {"monitoring": True}, {"monitoring": False}, {"nfd": "existing"}])
def test_every_value_set_has_an_owner(settings: Mapping[str, Any]) -> None:
    values = gpu_cluster_values((L4, A10G), GpuStackSpec(kind="gpu-operator-dra", cluster_version="1.34", **settings))
    assert [p for p, _ in owned_values.leaves(values) if owned_values.owner_of(GPU_OPERATOR_DRA, p) is None] == []
