"""The recorded EKS offerings (``components/gpuready/eks/offerings.json``) are what the installed moto ships.

After a moto upgrade this test fails until the file is regenerated with ``python -m tests.fidelity.eks_offerings``.
"""

from __future__ import annotations

import json
from importlib import metadata

from gpuready.core import offerings
from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from tests.fidelity.eks_offerings import VENDORED, installed_offerings, moto_release_date, render


def test_recorded_offerings_are_the_installed_motos() -> None:
    assert VENDORED.read_text(encoding="utf-8") == render(installed_offerings()), (
        "run: python -m tests.fidelity.eks_offerings"
    )


def test_the_file_names_motos_version_and_release_date() -> None:
    data = json.loads(VENDORED.read_text(encoding="utf-8"))
    assert data["moto"] == metadata.version("moto")
    assert data["date"] == moto_release_date()
    assert data["moto"] in data["source"] and data["date"] in data["source"]


def test_only_catalog_types_are_recorded_and_each_is_offered_somewhere() -> None:
    loaded = offerings.load("gpuready.eks")
    vendored = set().union(*loaded.regions.values())
    assert vendored <= set(EKS_INSTANCE_TYPES)
    assert len(loaded.regions) >= 20
    assert "eu-west-1" in loaded.regions and "g6.xlarge" not in loaded.regions["eu-west-1"]
