"""Builders for realistic objects to seed the stand-in with."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from .resources import Obj
from .store import now_timestamp

TaintSpec = Mapping[str, Any] | str

DEFAULT_CAPACITY: dict[str, str] = {
    "cpu": "8",
    "memory": "32577272Ki",
    "ephemeral-storage": "104845292Ki",
    "hugepages-1Gi": "0",
    "hugepages-2Mi": "0",
    "pods": "110",
}


def parse_taint(spec: TaintSpec) -> Obj:
    """A taint dict, or kubectl's "key=value:Effect" / "key:Effect" shorthand."""
    if not isinstance(spec, str):
        return dict(spec)
    key_value, sep, effect = spec.rpartition(":")
    if not sep:
        raise ValueError(f"taint {spec!r} needs an effect, e.g. 'key=value:NoSchedule'")
    key, _, value = key_value.partition("=")
    taint: Obj = {"key": key, "effect": effect}
    if value:
        taint["value"] = value
    return taint


def _internal_ip(name: str) -> str:
    digest = hashlib.sha256(name.encode()).digest()
    return f"10.{digest[0]}.{digest[1]}.{max(digest[2], 1)}"


def _condition(kind: str, status: str, reason: str, message: str, stamp: str) -> Obj:
    return {
        "type": kind,
        "status": status,
        "lastHeartbeatTime": stamp,
        "lastTransitionTime": stamp,
        "reason": reason,
        "message": message,
    }


def make_node(
    name: str,
    *,
    labels: Mapping[str, str] | None = None,
    taints: Sequence[TaintSpec] | None = None,
    capacity: Mapping[str, str] | None = None,
    allocatable: Mapping[str, str] | None = None,
    ready: bool = True,
    instance_type: str | None = None,
    kubelet_version: str = "v1.32.1",
    unschedulable: bool = False,
    zone: str | None = None,
) -> Obj:
    """A Node as a kubelet registers it: well-known labels, conditions, addresses, nodeInfo, capacity.

    `capacity` entries are added to (and override) a plain 8-CPU node's; `allocatable` defaults to the
    capacity. A node that is not ready also gets the `node.kubernetes.io/not-ready:NoSchedule` taint
    that the node lifecycle controller adds."""
    stamp = now_timestamp()
    node_labels = {
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": "amd64",
    }
    if instance_type:
        node_labels["node.kubernetes.io/instance-type"] = instance_type
        node_labels["beta.kubernetes.io/instance-type"] = instance_type
    if zone:
        node_labels["topology.kubernetes.io/zone"] = zone
        node_labels["topology.kubernetes.io/region"] = zone.rstrip("abcdefghijklmnopqrstuvwxyz") or zone
    node_labels.update(labels or {})
    node_capacity = {**DEFAULT_CAPACITY, **(capacity or {})}
    node_taints = [parse_taint(t) for t in taints or ()]
    if not ready and not any(t.get("key") == "node.kubernetes.io/not-ready" for t in node_taints):
        node_taints.append({"key": "node.kubernetes.io/not-ready", "effect": "NoSchedule", "timeAdded": stamp})
    spec: Obj = {"podCIDR": "10.244.0.0/24", "podCIDRs": ["10.244.0.0/24"], "providerID": f"standin://{name}"}
    if node_taints:
        spec["taints"] = node_taints
    if unschedulable:
        spec["unschedulable"] = True
    ready_condition = (
        _condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", stamp)
        if ready
        else _condition("Ready", "False", "KubeletNotReady", "container runtime network not ready", stamp)
    )
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {"name": name, "labels": node_labels, "annotations": {"node.alpha.kubernetes.io/ttl": "0"}},
        "spec": spec,
        "status": {
            "capacity": node_capacity,
            "allocatable": dict(allocatable) if allocatable is not None else dict(node_capacity),
            "conditions": [
                _condition(
                    "MemoryPressure",
                    "False",
                    "KubeletHasSufficientMemory",
                    "kubelet has sufficient memory available",
                    stamp,
                ),
                _condition("DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure", stamp),
                _condition(
                    "PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available", stamp
                ),
                ready_condition,
            ],
            "addresses": [{"type": "InternalIP", "address": _internal_ip(name)}, {"type": "Hostname", "address": name}],
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "nodeInfo": {
                "architecture": "amd64",
                "bootID": hashlib.md5(name.encode(), usedforsecurity=False).hexdigest(),
                "containerRuntimeVersion": "containerd://1.7.24",
                "kernelVersion": "6.1.0-standin",
                "kubeProxyVersion": kubelet_version,
                "kubeletVersion": kubelet_version,
                "machineID": hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest(),
                "operatingSystem": "linux",
                "osImage": "Ubuntu 22.04.5 LTS",
                "systemUUID": hashlib.sha256(name.encode()).hexdigest()[:32],
            },
        },
    }


def make_namespace(name: str, labels: Mapping[str, str] | None = None) -> Obj:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": name, "labels": dict(labels or {})}}


def make_resource_slice(node: str, devices: int, *, driver: str = "gpu.nvidia.com", generation: int = 1) -> Obj:
    """A ResourceSlice (resource.k8s.io/v1) a DRA kubelet plugin publishes for ``node``: ``devices`` devices
    ``gpu-0``, ``gpu-1``, ... in one pool named after the node."""
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceSlice",
        "metadata": {"name": f"{node}-{driver}-{generation}"},
        "spec": {
            "driver": driver,
            "nodeName": node,
            "pool": {"name": node, "generation": generation, "resourceSliceCount": 1},
            "devices": [{"name": f"gpu-{i}"} for i in range(devices)],
        },
    }
