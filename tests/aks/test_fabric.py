"""AKS InfiniBand pools: the ND-series facts and the rules of a pool that asks for the fabric."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.aks.catalog import AKS_VM_SIZES
from gpuready.aks.fabric import INFINIBAND
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.fabric.model import FabricNetwork, FabricSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError

ND_SIZES = sorted(name for name in AKS_VM_SIZES if name.startswith("Standard_ND"))


def spec(size: str = "Standard_ND96isr_H100_v5", **extra: Any) -> GpuPoolSpec:
    given: dict[str, Any] = {"image": "ubuntu", "driver": "operator", "fabric": FabricSpec(kind="infiniband"), **extra}
    return GpuPoolSpec(cloud="aks", name="train", instance_type=size, min_size=0, max_size=2, **given)


@pytest.mark.parametrize("size", sorted(AKS_VM_SIZES))
def test_infiniband_is_exactly_on_the_nd_series_of_the_catalog(size: str) -> None:
    has = (found := cloud_profile("aks").fabric.types.get(size)) is not None and found.kind == "infiniband"
    assert has is (size in ND_SIZES)
    if has:
        assert spec(size).fabric == FabricSpec(kind="infiniband")
    else:
        with pytest.raises(SpecError, match=rf"fabric: {size} has no infiniband"):
            spec(size)


@pytest.mark.parametrize("size", sorted(INFINIBAND))
def test_every_fact_names_its_microsoft_learn_page(size: str) -> None:
    assert INFINIBAND[size].startswith("https://learn.microsoft.com/azure/virtual-machines/sizes/gpu-accelerated/nd")


@pytest.mark.parametrize(
    ("extra", "path", "message"),
    [
        ({"image": "azurelinux"}, "image", "runs on Ubuntu nodes"),
        ({"driver": "cloud"}, "driver", "needs the GPU Operator's driver"),
        (
            {"fabric": FabricSpec(kind="infiniband", placement_group="ppg")},
            "fabric.placementGroup",
            "one fabric itself",
        ),
        (
            {"fabric": FabricSpec(kind="infiniband", networks=(FabricNetwork(network="a", subnetwork="b"),))},
            "fabric.networks",
            "no additional node networks",
        ),
        ({"fabric": FabricSpec(kind="gpudirect-rdma")}, "fabric.kind", "not a node fabric of AKS"),
    ],
)
def test_an_infiniband_pool_refuses_what_breaks_its_fabric(extra: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        spec(**extra)
    assert any(p.path == path and message in p.problem for p in error.value.problems), str(error.value)
