"""Where the tests read upstream files: ``../shared/reference/upstream/`` beside the checkout, never the repository.

gpuready keeps no copy of files taken from other public repositories (CRDs, chart archives and ``values.yaml``,
mig-parted's config, NVIDIA's docs samples). The shared reference snapshot holds them, with their provenance in its
``SOURCES.md`` and their sha256 in ``SHA256SUMS``; CI runs with it beside the clone. A test that reads one goes
through ``upstream_file`` and is skipped, with the missing path as its reason, when the snapshot is absent.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root (the checkout)."""
UPSTREAM = Path(os.environ.get("GPUREADY_REFERENCE_UPSTREAM", ROOT.parent / "shared" / "reference" / "upstream"))
"""The shared reference snapshot (``GPUREADY_REFERENCE_UPSTREAM`` overrides where it is)."""
SHOWN = "../shared/reference/upstream"
SUMS = "SHA256SUMS"


def upstream_file(relative: str) -> Path:
    """The upstream file ``relative`` to the snapshot's root; the calling test (or module, when called at import)
    is skipped with the reason when it is absent."""
    path = UPSTREAM / relative
    if not path.is_file():
        pytest.skip(
            f"{SHOWN}/{relative} is absent: the tests read upstream files from the shared reference snapshot beside "
            f"the checkout ({UPSTREAM}), which this machine does not have",
            allow_module_level=True,
        )
    return path


@functools.cache
def upstream_bytes(relative: str) -> bytes:
    """The bytes of ``upstream_file(relative)``, read once per process."""
    return upstream_file(relative).read_bytes()


def upstream_text(relative: str) -> str:
    return upstream_bytes(relative).decode("utf-8")


def sha256sums() -> dict[str, str]:
    """``SHA256SUMS`` of the snapshot: file relative to its root -> sha256 (the test skips without it)."""
    sums: dict[str, str] = {}
    for line in upstream_text(SUMS).splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            sums[name.lstrip("*").removeprefix("./")] = digest
    return sums
