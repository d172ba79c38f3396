"""``gpuready diff``'s reading of one planned pool resource's GPU capacity, for the provisioners' tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.lifecycle import PoolCapacity
from gpuready.plan_diff import registry


def read_capacity(type_token: str, inputs: Mapping[str, Any]) -> PoolCapacity | None:
    """The capacity the diff reads from a resource of ``type_token`` with these inputs."""
    return registry.read_capacity({"type": type_token, "urn": f"urn:{type_token}", "inputs": inputs}, "new")
