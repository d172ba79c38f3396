"""The RxDM sidecar facts (``gke/rxdm.py``) are Google's NCCL test pods': the daemon container, the pod volumes and
what the NCCL container adds, field by field, from GoogleCloudPlatform/container-engine-accelerators at the commit
``rxdm.py`` cites (``gpudirect-tcpx/nccl-test-latest.yaml``, ``gpudirect-tcpxo/nccl-test-latest.yaml``, expected
in ``../shared/reference/upstream/gke-gpudirect/`` under the same paths; skipped, naming the file, while absent).

Google's pods name their volumes their own way (``libraries``, ``nvidia``, ``proc``...); gpuready's names are its
own, so volumes and mounts are compared by what they mount (host path or medium, mount path)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import yaml

from gpuready.core.fabric.model import FabricNetwork, FabricSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.gke import fabric_objects
from gpuready.gke.fabric import GPUDIRECT
from gpuready.gke.rxdm import RXDM
from tests.upstream import upstream_text

MANIFESTS = {
    "gpudirect-tcpx": "gke-gpudirect/gpudirect-tcpx/nccl-test-latest.yaml",
    "gpudirect-tcpxo": "gke-gpudirect/gpudirect-tcpxo/nccl-test-latest.yaml",
}
DAEMON = {"gpudirect-tcpx": "tcpx-daemon", "gpudirect-tcpxo": "tcpxo-daemon"}
IGNORED_NCCL_MOUNTS = {"/configs"}
"""Mounts of Google's test container that belong to its test harness (the nccl-tests ConfigMap), not to RxDM."""


def google_pod(kind: str) -> Mapping[str, Any]:
    docs = [d for d in yaml.safe_load_all(upstream_text(MANIFESTS[kind])) if d and d.get("kind") == "Pod"]
    pod: Mapping[str, Any] = docs[0]
    return pod


def volume_sources(volumes: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Volume name -> what it is (``hostPath:/sys``, ``emptyDir:Memory:1Gi``)."""
    found = {}
    for volume in volumes:
        if "hostPath" in volume:
            found[volume["name"]] = f"hostPath:{volume['hostPath']['path']}"
        elif "emptyDir" in volume:
            empty = volume["emptyDir"]
            found[volume["name"]] = f"emptyDir:{empty.get('medium', '')}:{empty.get('sizeLimit', '')}"
    return found


def mounts(container: Mapping[str, Any], sources: Mapping[str, str]) -> set[tuple[str, str]]:
    """(what is mounted, where) of a container's volume mounts."""
    return {(sources.get(m["name"], m["name"]), m["mountPath"]) for m in container.get("volumeMounts") or []
            if m["mountPath"] not in IGNORED_NCCL_MOUNTS}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(MANIFESTS))
def test_the_sidecar_is_googles_daemon_container(kind: str) -> None:
    pod = google_pod(kind)
    theirs = next(c for c in pod["spec"]["containers"] if c["name"] == DAEMON[kind])
    ours = RXDM[kind].sidecar
    for key in ("name", "image", "command", "args", "securityContext", "env"):
        assert ours.get(key) == theirs.get(key), key
    their_sources = volume_sources(pod["spec"]["volumes"])
    our_sources = volume_sources(RXDM[kind].volumes)
    assert mounts(ours, our_sources) == mounts(theirs, their_sources)


@pytest.mark.parametrize("kind", sorted(MANIFESTS))
def test_the_nccl_container_gets_what_googles_does(kind: str) -> None:
    pod = google_pod(kind)
    theirs = next(c for c in pod["spec"]["containers"] if c["name"] != DAEMON[kind])
    added = RXDM[kind].container
    assert added["env"] == theirs["env"]
    wanted = set((theirs.get("securityContext") or {}).get("capabilities", {}).get("add") or [])
    assert set(added.get("capabilities") or []) == wanted
    their_sources = volume_sources(pod["spec"]["volumes"])
    assert mounts(added, volume_sources(RXDM[kind].volumes)) == mounts(theirs, their_sources)


@pytest.mark.parametrize("kind", sorted(MANIFESTS))
def test_the_pod_volumes_are_the_ones_googles_containers_mount(kind: str) -> None:
    pod = google_pod(kind)
    used = {m["name"] for c in pod["spec"]["containers"] for m in c.get("volumeMounts") or []
            if m["mountPath"] not in IGNORED_NCCL_MOUNTS}  # fmt: skip
    theirs = {source for name, source in volume_sources(pod["spec"]["volumes"]).items() if name in used}
    assert set(volume_sources(RXDM[kind].volumes).values()) == theirs


@pytest.mark.parametrize("kind", sorted(MANIFESTS))
def test_the_daemons_devices_annotation_is_googles(kind: str) -> None:
    machine = next(name for name, facts in GPUDIRECT.items() if facts.kind == kind)
    networks = tuple(FabricNetwork(network=f"n{i}", subnetwork=f"s{i}") for i in range(GPUDIRECT[machine].networks))
    spec = GpuPoolSpec(cloud="gke", name="train", instance_type=machine, min_size=0, max_size=2,
                       fabric=FabricSpec(kind=kind, networks=networks))  # type: ignore[arg-type]  # fmt: skip
    key = f"devices.gke.io/container.{DAEMON[kind]}"
    ours = yaml.safe_load(fabric_objects.pod_annotations(spec)[key])
    assert ours == yaml.safe_load(google_pod(kind)["metadata"]["annotations"][key])
