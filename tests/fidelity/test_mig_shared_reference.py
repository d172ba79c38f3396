"""gpuready's MIG tables against the shared reference's reading of mig-parted v0.15.0.

Source: ``../shared/reference/nvidia-mig-profiles.json`` (NVIDIA/mig-parted@e2d5ad1, ``config-default.yaml``,
read independently of this repository); ``test_mig_fidelity.py`` re-reads the YAML itself. Where the two
readings differ, the YAML decides and the difference is listed here with why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gpuready.core.catalog.mig_profiles import MIG_TABLES, MigTable

REFERENCE = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "nvidia-mig-profiles.json"

FAMILY_IN_REFERENCE = {
    "H200-141GB": "H200-141GB/H200-NVL",
    "H200-NVL": "H200-141GB/H200-NVL",
    "RTX-PRO-6000-Blackwell": "RTX-PRO-6000-Blackwell (96GB)",
}
"""gpuready family -> the reference's key where the names differ."""

PROFILE_DIFFERENCES: dict[str, dict[str, int | None]] = {
    # The reference gives 1g.35gb to both H200 PCI ids; mig-parted's all-1g.35gb filters to 0x2335 (SXM) only.
    "H200-NVL": {"1g.35gb": None},
    # mig-parted's all-1g.23gb.me sits under the "GB200, B200" comment and has no device filter.
    "GB200": {"1g.23gb+me": 1},
    # mig-parted's all-1g.12gb.me sits under the "H100 NVL, H800 NVL, GH200" comment and has no device filter.
    "H100-96GB/GH200-96GB/PG506-96GB/H20": {"1g.12gb+me": 1},
}
"""gpuready family -> profiles whose count differs from the reference (None: gpuready has no such profile)."""


def _reference() -> dict[str, Any]:
    if not REFERENCE.is_file():
        pytest.skip(f"shared reference {REFERENCE} is absent")
    data: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    assert "e2d5ad1fc72b9d298ea6d04b885cf2d7dbe56941" in data["source"]
    return data


@pytest.mark.parametrize("table", MIG_TABLES.values(), ids=lambda t: t.family)
def test_table_agrees_with_the_reference(table: MigTable) -> None:
    entry = _reference()["gpus"][FAMILY_IN_REFERENCE.get(table.family, table.family)]
    expected = {**entry["profiles"], **PROFILE_DIFFERENCES.get(table.family, {})}
    assert dict(table.profiles) == {p: n for p, n in expected.items() if n is not None}
    assert dict(table.balanced) == entry["balanced"]
    assert {p.upper() for p in table.pci_device_ids} <= {p.upper() for p in entry["pci_ids"]}
    assert table.inferred == entry["inferred"]


def test_every_reference_gpu_has_a_table_or_is_named_here() -> None:
    """GH200 144G and GB300 are sold by no cloud gpuready targets; everything else has a table."""
    covered = {FAMILY_IN_REFERENCE.get(f, f) for f in MIG_TABLES}
    assert set(_reference()["gpus"]) - covered == {"GH200-144G-HBM3e", "GB300"}
