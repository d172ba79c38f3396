"""The capacity seam: the registry, each cloud's default, and that every provisioner states what the existing
lifecycle code holds (no fact copied, none lost)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from gpuready.aks import lifecycle as aks
from gpuready.core.capacity import registry
from gpuready.core.capacity.interface import Provisioner, ScalingBounds
from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile
from gpuready.eks import lifecycle as eks
from gpuready.gke import lifecycle as gke
from tests.core.conftest import build_spec

REGISTERED = [
    ("eks", "node-group"), ("eks", "karpenter"), ("eks", "eks-auto-mode"),
    ("aks", "node-pool"), ("aks", "nap"),
    ("gke", "node-pool"), ("gke", "compute-class"),
]  # fmt: skip
ELASTIC = {("eks", "karpenter"), ("eks", "eks-auto-mode"), ("aks", "nap"), ("gke", "compute-class")}


def test_every_entry_loads_as_the_provisioner_it_is_registered_as() -> None:
    assert [(c, k) for c in cloud_names() for k in cloud_profile(c).provisioners] == REGISTERED
    loaded = registry.provisioners()
    assert [(p.cloud, p.key) for p in loaded] == REGISTERED
    for provisioner in loaded:
        assert isinstance(provisioner, Provisioner)
        assert provisioner.elastic is ((provisioner.cloud, provisioner.key) in ELASTIC)
        assert registry.provisioner_named(provisioner.cloud, provisioner.key) is provisioner


@pytest.mark.parametrize(("cloud", "key"), [("eks", "node-group"), ("aks", "node-pool"), ("gke", "node-pool")])
def test_each_cloud_defaults_to_its_fixed_group(cloud: Cloud, key: str) -> None:
    assert next(iter(cloud_profile(cloud).provisioners)) == key  # the first is the default
    chosen = registry.provisioner_for(build_spec(cloud))
    assert (chosen.cloud, chosen.key) == (cloud, key)


def test_an_unknown_provisioner_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="no provisioner 'karpenter' on 'aks'; known: node-pool"):
        registry.provisioner_named("aks", "karpenter")


def test_a_provisioner_registered_under_another_name_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    profile = type(cloud_profile("gke"))
    monkeypatch.setattr(
        profile, "provisioners", {**profile.provisioners, "compute-class": profile.provisioners["node-pool"]}
    )
    with pytest.raises(TypeError, match="not the 'gke' provisioner 'compute-class'"):
        registry.provisioner_named("gke", "compute-class")


def test_loading_every_provisioner_imports_no_pulumi_sdk() -> None:
    code = (
        "import sys; import gpuready.plugins; from gpuready.core.capacity import registry; registry.provisioners(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0].startswith('pulumi')))"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


SPECS: list[tuple[Cloud, dict[str, Any]]] = [
    ("eks", {}),
    ("eks", {"min_size": 1, "max_size": 4, "desired_size": 3}),
    ("eks", {"min_size": 2, "max_size": 2, "fixed_name": True}),
    ("aks", {}),
    ("aks", {"min_size": 2, "max_size": 2}),
    ("aks", {"min_size": 1, "max_size": 5, "desired_size": 2}),
    ("gke", {"min_size": 1, "max_size": 3}),
    ("gke", {"min_size": 0, "max_size": 6, "desired_size": 2, "fixed_name": True}),
]
TABLES = {"eks": eks.TABLES, "aks": aks.TABLES, "gke": gke.TABLES}
POOL_TABLES = {"eks": eks.NODE_GROUP, "aks": aks.AGENT_POOL, "gke": gke.NODE_POOL}


def _creation_only(cloud: Cloud, overrides: dict[str, Any]) -> tuple[str, ...]:
    spec = build_spec(cloud, **overrides)
    return {"eks": eks.CREATION_ONLY, "aks": aks.creation_only(spec), "gke": gke.CREATION_ONLY}[cloud]


@pytest.mark.parametrize(("cloud", "overrides"), SPECS)
def test_bounds_and_lifecycle_facts_are_the_existing_ones(cloud: Cloud, overrides: dict[str, Any]) -> None:
    spec = build_spec(cloud, **overrides)
    provisioner = registry.provisioner_for(spec)
    bounds = provisioner.bounds(spec)
    assert bounds == ScalingBounds(min=spec.min_size, max=spec.max_size, initial=spec.initial_size, elastic=False)
    assert bounds.expected_nodes == spec.initial_size
    facts = provisioner.lifecycle(spec)
    assert facts.table is POOL_TABLES[cloud]
    assert facts.creation_only == _creation_only(cloud, overrides)
    assert facts.rotates_name is spec.rotates_name
    assert provisioner.tables == TABLES[cloud]
    summary = provisioner.summary(spec)
    assert (summary.provisioner, summary.bounds) == (provisioner.key, bounds)
    assert summary.max_gpus == spec.max_size * spec.resolved.gpu.gpus


def test_an_elastic_pool_expects_no_nodes() -> None:
    assert ScalingBounds(min=0, max=4, initial=0, elastic=True).expected_nodes == 0
    assert ScalingBounds(min=2, max=4, initial=3).expected_nodes == 3
