"""Shared fixtures for the pure-core tests: a builder of valid pool specs with per-test overrides."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuPoolSpec
from tests.fast_config import checking

SpecFactory = Callable[..., GpuPoolSpec]

DEFAULT_INSTANCE_TYPES: dict[Cloud, str] = {
    "eks": "g6.xlarge",
    "aks": "Standard_NC4as_T4_v3",
    "gke": "g2-standard-4",
}
"""A listed, non-MIG single-GPU instance type per cloud, used unless a test overrides it."""


def build_spec(cloud: Cloud = "eks", **overrides: Any) -> GpuPoolSpec:
    """A valid pool on ``cloud`` (name ``gpu``, 0-2 nodes) with ``overrides`` applied to the spec fields."""
    fields: dict[str, Any] = {
        "name": "gpu",
        "instance_type": DEFAULT_INSTANCE_TYPES[cloud],
        "min_size": 0,
        "max_size": 2,
    }
    fields.update(overrides)
    return GpuPoolSpec(cloud=cloud, **fields)


@pytest.fixture
def make_spec() -> SpecFactory:
    """``make_spec(cloud, **overrides)`` builds a validated ``GpuPoolSpec``."""
    return build_spec


@pytest.fixture(autouse=True)
def _fast_path_checked() -> Iterator[None]:
    """Every config a core test validates goes both ways (``tests/fast_config.py``): the fast path refuses it or
    builds what the pydantic model builds, so every input of the config tables is compared."""
    with checking():
        yield
