"""The vendored upstream files under ``tests/data/upstream`` are the exact bytes ``SOURCES.md`` names.

Source: ``tests/data/upstream/SOURCES.md`` (one table row per vendored file: repository, tag, commit,
upstream path, sha256).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

from components.core.catalog import mig_profiles

UPSTREAM = Path(__file__).resolve().parents[1] / "data" / "upstream"
SOURCES = UPSTREAM / "SOURCES.md"

_ROW = re.compile(
    r"^\| `(?P<file>[^`]+)` \| (?P<repo>https://github\.com/[\w.-]+/[\w.-]+) \| `(?P<tag>[^`]+)` \| "
    r"`(?P<commit>[0-9a-f]{40})` \| `(?P<path>[^`]+)` \| `(?P<sha256>[0-9a-f]{64})` \|$"
)


def _rows() -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        match = _ROW.match(line)
        if match:
            rows[match["file"]] = match.groupdict()
    return rows


ROWS = _rows()


def test_sources_lists_every_vendored_file() -> None:
    on_disk = {p.relative_to(UPSTREAM).as_posix() for p in UPSTREAM.rglob("*") if p.is_file() and p != SOURCES}
    assert on_disk == set(ROWS)
    assert {"mig-parted/config-default.v0.15.0.yaml", "mig-parted/LICENSE"} <= set(ROWS)


@pytest.mark.parametrize("name", sorted(ROWS))
def test_vendored_file_matches_its_sha256(name: str) -> None:
    data = (UPSTREAM / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == ROWS[name]["sha256"]


def test_mig_parted_provenance_matches_what_the_catalog_cites() -> None:
    row = ROWS["mig-parted/config-default.v0.15.0.yaml"]
    assert row["repo"] == "https://github.com/NVIDIA/mig-parted"
    assert row["path"] == "deployments/systemd/config-default.yaml"
    # The catalog cites "NVIDIA/mig-parted@e2d5ad1 (v0.15.0) deployments/systemd/config-default.yaml".
    cited = re.search(
        r"NVIDIA/mig-parted@(?P<commit>[0-9a-f]{7,40}) \((?P<tag>[^)]+)\) (?P<path>\S+)", mig_profiles.MIG_PARTED_SOURCE
    )
    assert cited is not None, mig_profiles.MIG_PARTED_SOURCE
    assert row["commit"].startswith(cited["commit"])
    assert (cited["tag"], cited["path"]) == (row["tag"], row["path"])
