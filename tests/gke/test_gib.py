"""The gIB facts (``gke/gib.py``) are Google's RDMA NCCL test pod's: its volumes, what its container mounts and sets,
and the script it sources before NCCL (GoogleCloudPlatform/container-engine-accelerators at the commit ``gib.py``
cites, ``gpudirect-rdma/nccl-test.yaml``, expected in ``../shared/reference/upstream/gke-gpudirect/gpudirect-rdma/``;
skipped, naming the file, while absent)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from gpuready.gke import gib
from tests.upstream import upstream_text

MANIFEST = "gke-gpudirect/gpudirect-rdma/nccl-test.yaml"


def google_pod() -> Mapping[str, Any]:
    docs = [d for d in yaml.safe_load_all(upstream_text(MANIFEST)) if d and d.get("kind") == "Pod"]
    pod: Mapping[str, Any] = docs[0]
    return pod


def test_the_volumes_are_googles() -> None:
    assert list(gib.VOLUMES) == google_pod()["spec"]["volumes"]


def test_the_container_mounts_and_sets_what_googles_does() -> None:
    (theirs,) = google_pod()["spec"]["containers"]
    assert gib.CONTAINER["env"] == theirs["env"]
    assert gib.CONTAINER["volumeMounts"] == theirs["volumeMounts"]


def test_the_setup_is_what_googles_container_sources_before_nccl() -> None:
    (theirs,) = google_pod()["spec"]["containers"]
    script = theirs["args"][0].splitlines()
    assert all(line in script for line in gib.SHELL_SETUP)
