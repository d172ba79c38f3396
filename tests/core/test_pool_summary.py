"""A pool's published values: one typed, frozen record whose fields are the component's output names."""

from __future__ import annotations

import dataclasses

import pytest

from gpuready.core.pool_summary import PoolOutputs, pool_outputs
from tests.core.conftest import SpecFactory

OUTPUT_NAMES = [
    "node_selector", "node_labels", "taint", "tolerations", "resource_name", "allocatable", "gpus_per_node",
    "accelerator", "instance_type", "sharing", "driver", "lifecycle", "provisioner", "gpu_limit", "repair",
    "requirements", "scales", "schedulable", "min_nodes", "max_nodes", "fabric", "capacity",
]  # fmt: skip
"""The outputs every pool component registers, in registration order (the golden plans depend on it)."""


def test_outputs_are_frozen_and_in_registration_order(make_spec: SpecFactory) -> None:
    outputs = pool_outputs(make_spec("eks", instance_type="p5.48xlarge"), driver="d", lifecycle="l")
    assert list(outputs.as_dict()) == OUTPUT_NAMES
    assert [f.name for f in dataclasses.fields(PoolOutputs)] == OUTPUT_NAMES
    with pytest.raises(dataclasses.FrozenInstanceError):
        outputs.gpus_per_node = 1  # type: ignore[misc]
    assert (outputs.resource_name, outputs.allocatable, outputs.gpus_per_node) == (
        "nvidia.com/gpu", {"nvidia.com/gpu": 8}, 8,
    )  # fmt: skip
    assert (outputs.driver, outputs.lifecycle, outputs.accelerator) == ("d", "l", "h100")
