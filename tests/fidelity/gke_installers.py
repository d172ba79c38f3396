"""Generate ``components/gpuready/gke/nccl_installers.json`` from Google's NCCL plugin installers.

The installers (GoogleCloudPlatform/container-engine-accelerators ``gpudirect-tcpx/nccl-tcpx-installer.yaml``,
``gpudirect-tcpxo/nccl-tcpxo-installer.yaml``, ``gpudirect-rdma/nccl-rdma-installer.yaml`` at the commit below)
are read from the shared reference snapshot (``../shared/reference/upstream/gke-gpudirect/``), never from the
repository. gpuready creates them as Google publishes them, so run time needs their content: the table records each
DaemonSet by fabric kind with its citation and the file's sha256. ``tests/gke/test_fabric_objects.py`` regenerates
the table and compares it with the recorded one.

Regenerate: ``.venv/bin/python -m tests.fidelity.gke_installers`` (writes the table; ``--check`` only compares).
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import yaml

from gpuready.gke.fabric_objects import INSTALLERS_FILE
from tests.upstream import UPSTREAM, upstream_bytes

REPOSITORY = "GoogleCloudPlatform/container-engine-accelerators"
COMMIT = "992db81257553607f1477945f1b3219632991829"
SOURCES = {
    "gpudirect-tcpx": ("gpudirect-tcpx/nccl-tcpx-installer.yaml", "gke-gpudirect/nccl-tcpx-installer.yaml"),
    "gpudirect-tcpxo": ("gpudirect-tcpxo/nccl-tcpxo-installer.yaml", "gke-gpudirect/nccl-tcpxo-installer.yaml"),
    "gpudirect-rdma": ("gpudirect-rdma/nccl-rdma-installer.yaml", "gke-gpudirect/nccl-rdma-installer.yaml"),
    "gpudirect-rdma-a4x": (
        "gpudirect-rdma/nccl-rdma-installer-a4x.yaml", "gke-gpudirect/nccl-rdma-installer-a4x.yaml",
    ),
}  # fmt: skip
"""Installer key (the fabric kind, or kind and machine family: ``GpuDirect.installer_key``) -> (path in the
repository, path in the snapshot)."""
RECORDED_WHEN_ABSENT = frozenset({"gpudirect-rdma-a4x"})
"""Installers the shared snapshot does not hold yet: their recorded entry (taken from the repository at ``COMMIT``
with ``git show``) is kept as it is, and ``tests/gke/test_fabric_objects.py`` compares it with the snapshot's copy,
skipping with the missing path as the reason, until the snapshot has it."""


def table() -> dict[str, Any]:
    """The installers by key, each with its citation."""
    installers = {}
    for kind, (path, shared) in SOURCES.items():
        if kind in RECORDED_WHEN_ABSENT and not (UPSTREAM / shared).is_file():
            installers[kind] = json.loads(INSTALLERS_FILE.read_text("utf-8"))["installers"][kind]
            continue
        data = upstream_bytes(shared)
        installers[kind] = {
            "source": f"{REPOSITORY}@{COMMIT}:{path}",
            "sha256": hashlib.sha256(data).hexdigest(),
            "manifest": yaml.safe_load(data),
        }
    return {"installers": installers}


def render(facts: dict[str, Any]) -> str:
    return json.dumps(facts, indent=1, sort_keys=True) + "\n"


def main(argv: list[str]) -> None:
    text = render(table())
    if argv == ["--check"]:
        raise SystemExit(0 if INSTALLERS_FILE.read_text("utf-8") == text else "stale: regenerate the installers table")
    INSTALLERS_FILE.write_text(text, "utf-8")
    print(f"wrote {INSTALLERS_FILE}")


if __name__ == "__main__":
    main(sys.argv[1:])
