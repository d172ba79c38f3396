"""The stack program's adapters: a pool's component comes from its provisioner's ``adapter``."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from gpuready import stack_adapters
from gpuready.aks.node_pool import AksGpuNodePool
from gpuready.core.capacity import registry
from gpuready.core.clouds.registry import Cloud
from gpuready.core.stack_settings import StackSettings
from gpuready.eks.node_pool import EksGpuNodePool
from gpuready.gke.node_pool import GkeGpuNodePool
from gpuready.pool_outputs import GpuNodePoolBase
from gpuready.stack_adapters import POOL_BUILDER, build_pool
from tests.core.conftest import build_spec
from tests.pulumi_mocks import install_mocks
from tests.wiring import cloud_settings


@pytest.mark.parametrize(
    ("cloud", "component"), [("eks", EksGpuNodePool), ("aks", AksGpuNodePool), ("gke", GkeGpuNodePool)]
)
def test_each_cloud_default_builds_its_fixed_group(cloud: Cloud, component: type[GpuNodePoolBase]) -> None:
    spec = build_spec(cloud)
    assert registry.provisioner_for(spec).component.builder == f"gpuready.{cloud}.stack_adapter"
    settings = StackSettings(cloud=cloud, cluster_name="c", pools=(spec,), cloud_settings=cloud_settings(cloud))
    install_mocks()
    assert type(build_pool(spec, settings)) is component


def test_an_adapter_that_builds_no_pool_component_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    provisioner = registry.provisioner_named("gke", "node-pool")
    monkeypatch.setattr(type(provisioner), "component", dataclasses.replace(provisioner.component, builder=__name__))
    monkeypatch.setattr(stack_adapters, "POOL_BUILDER", "not_a_pool")
    with pytest.raises(TypeError, match=r"test_stack_adapters:not_a_pool built dict, not a GPU node pool component"):
        build_pool(build_spec("gke"), StackSettings(cloud="gke", cluster_name="c", pools=()))


def not_a_pool(spec: object, settings: object) -> dict[str, object]:
    """An adapter that builds something else."""
    return {"spec": spec, "settings": settings}


def test_every_provisioner_has_an_adapter() -> None:
    for provisioner in registry.provisioners():
        builder = importlib.import_module(provisioner.component.builder)
        assert callable(getattr(builder, POOL_BUILDER)), provisioner.key
        assert callable(builder.package_pool), provisioner.key
