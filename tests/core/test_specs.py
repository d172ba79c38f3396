"""GpuPoolSpec: defaults, derived properties, and validation on construction."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import SpecError

SpecFactory = Callable[..., GpuPoolSpec]


@pytest.mark.parametrize(("cloud", "image"), [("eks", "al2023"), ("aks", "ubuntu"), ("gke", "cos")])
def test_image_family_defaults_to_the_clouds_first_image(make_spec: SpecFactory, cloud: Cloud, image: str) -> None:
    spec = make_spec(cloud)
    assert spec.image is None
    assert spec.image_family == image == cloud_profile(cloud).images[0]


@pytest.mark.parametrize(("cloud", "image"), [("eks", "bottlerocket"), ("aks", "azurelinux"), ("gke", "ubuntu")])
def test_image_family_follows_an_explicit_image(make_spec: SpecFactory, cloud: Cloud, image: str) -> None:
    assert make_spec(cloud, image=image).image_family == image


@pytest.mark.parametrize(
    ("sizes", "initial"),
    [
        ({"min_size": 0, "max_size": 3}, 0),
        ({"min_size": 2, "max_size": 3}, 2),
        ({"min_size": 0, "max_size": 3, "desired_size": 1}, 1),
        ({"min_size": 1, "max_size": 3, "desired_size": 3}, 3),
    ],
)
def test_initial_size_is_desired_or_min(make_spec: SpecFactory, sizes: dict[str, int], initial: int) -> None:
    assert make_spec("eks", **sizes).initial_size == initial


@pytest.mark.parametrize(
    ("sharing", "mode"),
    [
        (None, "none"),
        (GpuSharing(mode="time-slicing", replicas=4), "time-slicing"),
        (GpuSharing(mode="mps", replicas=2), "mps"),
    ],
)
def test_sharing_mode(make_spec: SpecFactory, sharing: GpuSharing | None, mode: str) -> None:
    assert make_spec("eks", sharing=sharing).sharing_mode == mode


def test_mig_sharing_mode_is_mig(make_spec: SpecFactory) -> None:
    spec = make_spec("eks", instance_type="p4d.24xlarge", sharing=MigPartitioning(profile="1g.5gb"))
    assert spec.sharing_mode == "mig"
    assert MigPartitioning(profile="1g.5gb").mode == "mig"


def test_defaults(make_spec: SpecFactory) -> None:
    spec = make_spec("eks")
    assert (spec.capacity, spec.driver, spec.driver_version, spec.sharing, spec.gpu) == (
        "on-demand",
        "cloud",
        None,
        None,
        None,
    )
    assert spec.labels == {}
    assert spec.taints == ()
    assert MigPartitioning().strategy == "single"
    assert GpuSharing(mode="mps", replicas=2).rename_by_default is False
    assert GpuSharing(mode="mps", replicas=2).fail_requests_greater_than_one is None
    assert Taint(key="k").effect == "NoSchedule"
    assert Taint(key="k").value == ""


def test_construction_resolves_the_gpus(make_spec: SpecFactory) -> None:
    resolved = make_spec("eks", instance_type="g6.12xlarge").resolved.gpu
    assert (resolved.model.key, resolved.gpus, resolved.arch, resolved.listed) == ("l4", 4, "x86_64", True)


def test_labels_and_taints_are_copied_into_plain_containers(make_spec: SpecFactory) -> None:
    labels = {"example.com/team": "ml"}
    taints = [Taint(key="example.com/dedicated", value="ml")]
    spec = make_spec("eks", labels=labels, taints=taints)
    labels["example.com/other"] = "x"
    assert spec.labels == {"example.com/team": "ml"}
    assert spec.taints == (Taint(key="example.com/dedicated", value="ml"),)


def test_spec_is_frozen(make_spec: SpecFactory) -> None:
    spec = make_spec("eks")
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.name = "other"  # type: ignore[misc]


def test_equal_specs_compare_equal(make_spec: SpecFactory) -> None:
    assert make_spec("gke", desired_size=1) == make_spec("gke", desired_size=1)
    assert make_spec("gke", desired_size=1) != make_spec("gke", desired_size=2)


@pytest.mark.parametrize(
    ("overrides", "paths"),
    [
        ({"name": "-bad", "min_size": -1}, ["name", "minSize"]),
        ({"instance_type": "m5.large", "name": "-x"}, ["instanceType", "name"]),
        ({"max_size": 0, "capacity": "reserve"}, ["maxSize", "capacity"]),
    ],
)
def test_invalid_spec_raises_every_problem(overrides: dict[str, Any], paths: list[str]) -> None:
    fields: dict[str, Any] = {"name": "gpu", "instance_type": "g6.xlarge", "min_size": 0, "max_size": 2}
    fields.update(overrides)
    with pytest.raises(SpecError) as info:
        GpuPoolSpec(cloud="eks", **fields)
    assert [p.path for p in info.value.problems] == paths
