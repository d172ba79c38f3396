"""The Kubernetes objects gpuready creates beside a GPU stack release: its namespace, its config maps and, on
GKE, the ResourceQuota that admits ``system-node-critical`` pods. Plain dicts, validated in the tests against
the Kubernetes OpenAPI schemas in strict mode. Pure.

Config map names carry a hash of their content: the GPU Operator does not watch a device-plugin config map
for edits (cloud-native-docs ``gpu-sharing.rst``: restart the plugin DaemonSet by hand; NVIDIA/gpu-operator#1144),
but a new name changes the ClusterPolicy (or the plugin chart's DaemonSet), which rolls the pods.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from gpuready.record import record

MANAGED_BY = {"app.kubernetes.io/managed-by": "gpuready"}
PRIVILEGED_NAMESPACE = {
    "pod-security.kubernetes.io/enforce": "privileged",
    "pod-security.kubernetes.io/audit": "privileged",
    "pod-security.kubernetes.io/warn": "privileged",
}
"""The operands and the device plugin mount host paths and run privileged, so a cluster enforcing a stricter
Pod Security level by default must not apply it here (the operator chart's ``psa.enabled`` sets the same)."""


@record(frozen=True, kw_only=True, slots=True)
class ConfigMapObject:
    """A config map beside the release; ``base_name`` names it stably while its content hash changes."""

    base_name: str
    """Name without the content hash (``gpuready-device-plugin-config``): the object's logical name."""
    manifest: Mapping[str, Any]
    """The ``v1/ConfigMap``."""

    @property
    def name(self) -> str:
        """``<base_name>-<hash of data>``, the name in the cluster."""
        return str(self.manifest["metadata"]["name"])

    @property
    def data(self) -> Mapping[str, str]:
        data: Mapping[str, str] = self.manifest["data"]
        return data


@record(frozen=True, kw_only=True, slots=True)
class ResourceQuotaObject:
    """A resource quota beside the release (GKE's priority-class quota)."""

    manifest: Mapping[str, Any]
    """The ``v1/ResourceQuota``."""

    @property
    def name(self) -> str:
        return str(self.manifest["metadata"]["name"])


ReleaseObject = ConfigMapObject | ResourceQuotaObject
"""An object gpuready creates in the release's namespace before the release."""


def namespace(name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": name, "labels": {**MANAGED_BY, **PRIVILEGED_NAMESPACE}},
    }


def config_map(base_name: str, namespace_name: str, data: Mapping[str, str]) -> ConfigMapObject:
    """A config map named ``<base_name>-<hash of data>``."""
    digest = hashlib.sha256(repr(sorted(data.items())).encode()).hexdigest()[:8]
    manifest = {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": f"{base_name}-{digest}", "namespace": namespace_name, "labels": dict(MANAGED_BY)},
        "data": dict(data),
    }
    return ConfigMapObject(base_name=base_name, manifest=manifest)
