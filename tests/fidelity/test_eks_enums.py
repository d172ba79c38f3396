"""What gpuready sends to ``CreateNodegroup`` against the EKS API model botocore ships.

Source: ``botocore/data/eks/2017-11-01/service-2.json.gz`` of the installed botocore (1.44.5): the enums
``AMITypes``, ``CapacityTypes`` and ``TaintEffect``, the length limits of ``labelKey``, ``labelValue``,
``taintKey`` and ``taintValue``, and the minimums of ``NodegroupScalingConfig`` and
``NodegroupUpdateConfig``. The plans checked are every spec of ``tests/fidelity/spec_matrix.py``.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.k8s_syntax import TAINT_EFFECTS
from gpuready.core.specs import CAPACITIES, GpuPoolSpec, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.eks import capacity, plan
from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from gpuready.errors import SpecError
from tests.fidelity.spec_matrix import valid_specs

_BOTOCORE = importlib.util.find_spec("botocore")
assert _BOTOCORE is not None and _BOTOCORE.origin is not None
MODEL_PATH = Path(_BOTOCORE.origin).parent / "data" / "eks" / "2017-11-01" / "service-2.json.gz"
SHAPES: Mapping[str, Any] = json.loads(gzip.decompress(MODEL_PATH.read_bytes()))["shapes"]
DEPRECATED_GPU_AMI = "AL2_x86_64_GPU"
"""Still in the enum, but EKS stopped publishing AL2 AMIs on 2025-11-26 (amazon-eks-ami doc/usage/al2.md)."""


def enum(shape: str) -> set[str]:
    return set(SHAPES[shape]["enum"])


def length_problems(shape: str, text: str) -> list[str]:
    limits = SHAPES[shape]
    problems = []
    if len(text) < limits.get("min", 0):
        problems.append(f"{shape} {text!r} is shorter than {limits['min']}")
    if len(text) > limits.get("max", len(text)):
        problems.append(f"{shape} {text!r} is {len(text)} characters, over {limits['max']}")
    return problems


def plan_problems(args: Mapping[str, Any]) -> list[str]:
    """Where a ``node_group_args`` result breaks a constraint of the EKS model."""
    problems: list[str] = []
    if len(args["node_group_name"]) > 63:  # EKS CreateNodegroup docs; the model leaves nodegroupName unbounded
        problems.append(f"node group name {args['node_group_name']!r} is over 63 characters")
    for key, value in args["labels"].items():
        problems += length_problems("labelKey", key) + length_problems("labelValue", value)
    for taint in args["taints"]:
        problems += length_problems("taintKey", taint["key"]) + length_problems("taintValue", taint.get("value", ""))
        if set(taint) - set(SHAPES["Taint"]["members"]):
            problems.append(f"taint {taint} has fields the API does not know")
    if args["ami_type"] not in enum("AMITypes"):
        problems.append(f"amiType {args['ami_type']}")
    if args["capacity_type"] not in enum("CapacityTypes"):
        problems.append(f"capacityType {args['capacity_type']}")
    problems += [f"taint effect {t['effect']}" for t in args["taints"] if t["effect"] not in enum("TaintEffect")]
    scaling = args["scaling_config"]
    for field, shape in (("min_size", "ZeroCapacity"), ("max_size", "Capacity"), ("desired_size", "ZeroCapacity")):
        if scaling[field] < SHAPES[shape]["min"]:
            problems.append(f"scalingConfig.{field} {scaling[field]} under {SHAPES[shape]['min']}")
    if args["update_config"]["max_unavailable"] < SHAPES["NonZeroInteger"]["min"]:
        problems.append("updateConfig.maxUnavailable")
    return problems


def test_the_model_is_the_one_cited() -> None:
    assert MODEL_PATH.is_file()
    assert {"AMITypes", "CapacityTypes", "TaintEffect", "labelKey", "labelValue", "taintKey", "taintValue"} <= set(
        SHAPES
    )
    assert SHAPES["Taint"]["members"]["effect"]["shape"] == "TaintEffect"
    assert SHAPES["labelsMap"]["key"]["shape"] == "labelKey"
    assert SHAPES["labelsMap"]["value"]["shape"] == "labelValue"


def test_every_ami_type_is_in_the_api_enum() -> None:
    assert set(plan.AMI_TYPES.values()) <= enum("AMITypes")


def test_no_gpu_ami_type_is_the_deprecated_al2_one() -> None:
    assert DEPRECATED_GPU_AMI in enum("AMITypes")  # the check below would be vacuous otherwise
    assert DEPRECATED_GPU_AMI not in plan.AMI_TYPES.values()
    assert all("NVIDIA" in ami and not ami.startswith("AL2_") for ami in plan.AMI_TYPES.values())
    assert {plan.ami_type(spec) for spec in valid_specs("eks")} <= set(plan.AMI_TYPES.values())


def test_every_image_and_architecture_in_the_catalog_has_an_ami_type() -> None:
    archs = {t.arch for t in EKS_INSTANCE_TYPES.values()}
    assert {(image, arch) for image in cloud_profile("eks").images for arch in archs} <= set(plan.AMI_TYPES)


def test_every_capacity_type_is_in_the_api_enum() -> None:
    assert set(plan.CAPACITY_TYPES) == set(capacity.PROVISIONER.capacities) <= set(CAPACITIES)
    assert set(plan.CAPACITY_TYPES.values()) <= enum("CapacityTypes")


def test_every_kubernetes_taint_effect_maps_into_the_api_enum() -> None:
    emitted = {plan.to_eks_taint(Taint(key="k", value="v", effect=e))["effect"] for e in TAINT_EFFECTS}
    assert emitted == enum("TaintEffect")


def test_matrix_covers_both_images_both_archs_and_sharing() -> None:
    specs = valid_specs("eks")
    assert {s.image_family for s in specs} == set(cloud_profile("eks").images)
    assert {s.resolved.gpu.arch for s in specs} == {"x86_64", "arm64"}
    assert {s.sharing_mode for s in specs} == {"none", "time-slicing", "mps", "mig"}


def test_every_plan_of_the_matrix_fits_the_model() -> None:
    problems = {p for spec in valid_specs("eks") for p in plan_problems(plan.node_group_args(spec))}
    assert sorted(problems) == []


def _longest_name_pool() -> GpuPoolSpec:
    return GpuPoolSpec(
        cloud="eks",
        name="p" * 63,
        instance_type="p5.48xlarge",
        min_size=0,
        max_size=2,
        sharing=MigPartitioning(layout={"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1}, strategy="mixed"),
    )


def _pool(**extra: Any) -> Callable[[], GpuPoolSpec]:
    return lambda: GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0, max_size=2, **extra)


_LONG_KEY = "team.example.com/" + "k" * 50  # a valid Kubernetes key (prefix <= 253, name <= 63), 67 characters


@pytest.mark.parametrize(
    "make_spec",
    [
        pytest.param(
            _longest_name_pool,
            id="63-char-name-custom-mig-layout",
        ),
        pytest.param(
            _pool(labels={"example.com/flag": ""}),
            id="empty-label-value",
        ),
        pytest.param(
            _pool(labels={_LONG_KEY: "x"}),
            id="label-key-over-63",
        ),
        pytest.param(
            _pool(taints=(Taint(key=_LONG_KEY, value="x", effect="NoSchedule"),)),
            id="taint-key-over-63",
        ),
        pytest.param(_pool(labels={"example.com/" + "k" * 51: "v" * 63}), id="label-at-the-limits"),
        pytest.param(_pool(taints=(Taint(key="example.com/" + "k" * 51, value="", effect="NoSchedule"),)), id="taint"),
    ],
)
def test_a_spec_is_rejected_or_its_plan_fits_the_model(make_spec: Callable[[], GpuPoolSpec]) -> None:
    """Validation promises that an accepted spec never fails at the API: reject it, or emit what EKS accepts."""
    try:
        spec = make_spec()
    except SpecError:
        return
    assert plan_problems(plan.node_group_args(spec)) == []
