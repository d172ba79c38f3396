"""The ``repair`` pool key: EKS node groups' nodeRepairConfig against botocore's EKS model, the Karpenter feature
gate against its chart values, and each provisioner's refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import pytest
import yaml

from gpuready.core.health.conditions import HEALTH_CONDITIONS, condition_reason
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.plan import node_group_args
from gpuready.eks.repair import GPU_OVERRIDES as EKS_GPU_OVERRIDES
from gpuready.eks.repair import node_repair_config as eks_node_repair_config
from gpuready.errors import SpecError
from gpuready.gke.compute_class import compute_class
from gpuready.gke.plan import node_pool_args
from tests.core.conftest import build_spec

ROOT = Path(__file__).resolve().parents[2]
KARPENTER_VALUES = ROOT.parent / "shared/reference/upstream/karpenter-aws/chart-values.v1.14.1.yaml"


def camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


def check_against_shape(value: Any, shape: Any, path: str) -> None:
    """``value`` (Pulumi snake_case keys) fits botocore's shape: member names, enums, min and max."""
    if shape.type_name == "structure":
        assert isinstance(value, dict), path
        for key, item in value.items():
            assert camel(key) in shape.members, f"{path}.{camel(key)} is not in botocore's {shape.name}"
            check_against_shape(item, shape.members[camel(key)], f"{path}.{camel(key)}")
    elif shape.type_name == "list":
        for i, item in enumerate(value):
            check_against_shape(item, shape.member, f"{path}[{i}]")
    elif shape.type_name == "string":
        assert isinstance(value, str), path
        if shape.enum:
            assert value in shape.enum, f"{path}: {value} not in {shape.enum}"
    elif shape.type_name == "integer":
        assert isinstance(value, int), path
        assert shape.metadata.get("min", value) <= value <= shape.metadata.get("max", value), path
    elif shape.type_name == "boolean":
        assert isinstance(value, bool), path


@pytest.mark.parametrize("policy", [RepairPolicy(), RepairPolicy(enabled=False),
                                    RepairPolicy(max_parallel=3, max_unhealthy_percent=100)])  # fmt: skip
def test_node_repair_config_fits_botocores_eks_model(policy: RepairPolicy) -> None:
    model = botocore.session.get_session().get_service_model("eks")
    config = node_group_args(build_spec("eks", repair=policy))["node_repair_config"]
    check_against_shape(config, model.shape_for("NodeRepairConfig"), "nodeRepairConfig")
    assert config["enabled"] is policy.enabled
    if policy.enabled:
        assert config["max_parallel_nodes_repaired_count"] == (policy.max_parallel or 1)


def test_gpu_overrides_name_the_agents_conditions_and_reasons() -> None:
    for override in EKS_GPU_OVERRIDES:
        assert HEALTH_CONDITIONS[override.condition].reporter == "eks-node-monitoring-agent"
        fact = condition_reason(HEALTH_CONDITIONS[override.condition], override.reason)
        assert fact is not None and fact.condition, override.reason  # a reason the agent sets as the condition
    actions = {o.reason: o.action for o in EKS_GPU_OVERRIDES}
    assert actions["DCGMError"] == "NoAction"  # a health agent that cannot reach DCGM: no node is replaced for it
    assert actions["NvidiaXID79Error"] == "Replace"


def test_the_karpenter_feature_gate_is_the_charts() -> None:
    if not KARPENTER_VALUES.is_file():
        pytest.skip(f"{KARPENTER_VALUES} is absent (shared reference data)")
    values = yaml.safe_load(KARPENTER_VALUES.read_text())
    assert values["settings"]["featureGates"]["nodeRepair"] is False  # alpha, off by default


@pytest.mark.parametrize(("cloud", "provisioner", "repair", "path"), [
    ("eks", "eks-auto-mode", RepairPolicy(enabled=False), "repair.enabled"),
    ("eks", "karpenter", RepairPolicy(enabled=False), "repair.enabled"),
    ("aks", None, RepairPolicy(enabled=False), "repair.enabled"),
    ("aks", "nap", RepairPolicy(enabled=False), "repair.enabled"),
    ("gke", None, RepairPolicy(max_parallel=2), "repair"),
    ("eks", None, RepairPolicy(max_parallel=0), "repair.maxParallel"),
    ("eks", None, RepairPolicy(max_unhealthy_percent=101), "repair.maxUnhealthyPercent"),
])  # fmt: skip
def test_what_a_provisioner_cannot_do_is_refused(cloud: str, provisioner: str | None, repair: RepairPolicy,
                                                 path: str) -> None:  # fmt: skip
    extra: dict[str, Any] = {"provisioner": provisioner} if provisioner else {}
    if provisioner in ("eks-auto-mode", "karpenter", "nap"):
        extra["min_size"] = 0
    with pytest.raises(SpecError) as error:
        build_spec(cloud, repair=repair, **extra)
    assert path in {p.path for p in error.value.problems}


def test_gke_auto_repair_is_explicit_both_ways() -> None:
    assert node_pool_args(build_spec("gke"), 1)["management"]["auto_repair"] is True
    off: GpuPoolSpec = build_spec("gke", repair=RepairPolicy(enabled=False))
    assert node_pool_args(off, 1)["management"]["auto_repair"] is False
    elastic = build_spec("gke", provisioner="compute-class", min_size=0, repair=RepairPolicy(enabled=False))
    assert compute_class(elastic)["spec"]["nodePoolConfig"]["autoRepair"] is False


def test_eks_repair_off_is_explicit() -> None:
    assert eks_node_repair_config(build_spec("eks", repair=RepairPolicy(enabled=False))) == {"enabled": False}
