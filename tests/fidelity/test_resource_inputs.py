"""The recorded input trees (``components/gpuready/<cloud>/inputs.json``) are what the installed Pulumi SDKs declare.

The pure core checks a pool's ``overrides`` against these trees; after an SDK upgrade this test fails until they are
regenerated with ``python -m tests.fidelity.resource_inputs``.
"""

from __future__ import annotations

import json

import pytest

from gpuready.core import resource_inputs
from gpuready.core.clouds.registry import cloud_profile
from tests.fidelity.resource_inputs import RESOURCES, render, vendored_path
from tests.fidelity.resource_inputs import resource_inputs as installed_inputs


@pytest.mark.parametrize("cloud", sorted(RESOURCES))
def test_vendored_tree_is_the_installed_sdks(cloud: str) -> None:
    vendored = vendored_path(cloud).read_text(encoding="utf-8")
    assert vendored == render(installed_inputs(cloud)), "run: python -m tests.fidelity.resource_inputs"


@pytest.mark.parametrize("cloud", sorted(RESOURCES))
def test_the_loaded_tree_is_the_vendored_file(cloud: str) -> None:
    tree = resource_inputs.load(cloud_profile(cloud).inputs_package)
    data = json.loads(vendored_path(cloud).read_text(encoding="utf-8"))
    assert (tree.resource, tree.sdk) == (data["resource"], data["sdk"])
    assert set(tree.inputs) == set(data["inputs"])


@pytest.mark.parametrize(
    ("cloud", "path", "python"),
    [
        ("eks", "launchTemplate.version", "version"),
        ("aks", "osSKU", "os_sku"),
        ("aks", "vnetSubnetID", "vnet_subnet_id"),
        ("gke", "nodeConfig.reservationAffinity.consumeReservationType", "consume_reservation_type"),
        ("gke", "nodeConfig.secondaryBootDisks.diskImage", "disk_image"),
    ],
)
def test_tree_spells_inputs_as_the_provider_and_the_sdk_do(cloud: str, path: str, python: str) -> None:
    inputs = resource_inputs.load(cloud_profile(cloud).inputs_package).inputs
    *parents, last = path.split(".")
    for part in parents:
        nested = inputs[part].inputs
        assert nested is not None
        inputs = nested
    assert inputs[last].python == python
