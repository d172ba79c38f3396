"""A node of a DRA pool must not advertise extended GPU resources (the device plugin would serve it too)."""

from __future__ import annotations

import pytest

from gpuready.verify import advertised
from gpuready.verify import findings as f
from gpuready.verify.expectations import Expectation
from gpuready.verify.nodes import NodeView

DRA_POOL = Expectation(pool="dra", accelerator=None, gpus_per_node=4, advertiser="dra")


@pytest.mark.parametrize(
    ("allocatable", "codes"),
    [
        ({"cpu": 8}, []),
        ({"nvidia.com/gpu": 0}, []),
        ({"nvidia.com/gpu": 4}, [f.DRA_NODE_HAS_DEVICE_PLUGIN]),
        ({"nvidia.com/mig-1g.10gb": 7}, [f.DRA_NODE_HAS_DEVICE_PLUGIN]),
    ],
)
def test_dra_nodes_carry_no_extended_gpu_resources(allocatable: dict[str, int], codes: list[str]) -> None:
    found = advertised.check_advertised(NodeView(name="n1", allocatable=allocatable), DRA_POOL)
    assert [x.code for x in found] == codes
    for finding in found:
        assert "nvidia.com/gpu.deploy.device-plugin=false" in finding.fix
        assert finding.severity == "error"
        assert "dra" in finding.message
