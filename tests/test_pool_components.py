"""``pool_component_for``: the component class of a pool comes from its provisioner's ``adapter``."""

from __future__ import annotations

import pytest

from components.aks.node_pool import AksGpuNodePool
from components.core.capacity import registry
from components.core.catalog.instance_types import Cloud
from components.eks.node_pool import EksGpuNodePool
from components.gke.node_pool import GkeGpuNodePool
from components.pool_components import pool_component_for
from components.pool_outputs import GpuNodePoolBase
from tests.core.conftest import build_spec


@pytest.mark.parametrize(
    ("cloud", "component"), [("eks", EksGpuNodePool), ("aks", AksGpuNodePool), ("gke", GkeGpuNodePool)]
)
def test_each_cloud_default_makes_its_fixed_group(cloud: Cloud, component: type[GpuNodePoolBase]) -> None:
    spec = build_spec(cloud)
    assert pool_component_for(spec) is component
    assert registry.provisioner_for(spec).adapter == f"{component.__module__}:{component.__name__}"


def test_an_adapter_that_is_not_a_pool_component_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    provisioner = registry.provisioner_named("gke", "node-pool")
    monkeypatch.setattr(type(provisioner), "adapter", "components.gke.node_pool:GkeGpuNodePoolArgs")
    with pytest.raises(TypeError, match=r"components\.gke\.node_pool:GkeGpuNodePoolArgs is not a GPU node pool"):
        pool_component_for(build_spec("gke"))
