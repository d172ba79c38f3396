"""The bin-packing scheduler's Kubernetes objects, as plain manifests (camelCase dicts). Pure.

Follows "Configure Multiple Schedulers" (kubernetes/website ``examples/admin/sched/my-scheduler.yaml``): a
ServiceAccount bound to ``system:kube-scheduler`` and ``system:volume-scheduler``, a ConfigMap with the
``KubeSchedulerConfiguration`` mounted into a Deployment that runs ``kube-scheduler --config``. Where the
page edits ``system:kube-scheduler`` to add the scheduler's Lease name (its get/update rule on ``leases``
lists only ``kube-scheduler``), this module grants the same in a Role of the scheduler's own namespace, since
managed control planes own the system roles. The RoleBinding to ``extension-apiserver-authentication-reader``
lets the scheduler read the ``kube-system/extension-apiserver-authentication`` ConfigMap for delegated
authentication of its secure port. The ConfigMap is mounted by the kubelet, so the scheduler needs no
ConfigMap read permission.
"""

from __future__ import annotations

import hashlib
from typing import Any

from gpuready.core import namespaces
from gpuready.core.binpack.scheduler_config import (
    CONFIG_DIR,
    CONFIG_FILE,
    CONFIG_PATH,
    SECURE_PORT,
    BinPackSchedulerSpec,
    configuration_yaml,
)
from gpuready.core.scheduling import LABEL_GPU_POOL

RBAC_API_GROUP = "rbac.authorization.k8s.io"
CONFIG_HASH_ANNOTATION = "gpuready.io/scheduler-config-sha256"
"""Pod template annotation that changes with the configuration, so a new config rolls the pods (kube-scheduler
reads ``--config`` once, at start)."""
NON_ROOT_UID = 65532
"""The ``nonroot`` user of the distroless base images (kube-scheduler needs no files of its own: it keeps
its self-signed serving certificate in memory when ``--cert-dir`` is unset)."""
PSA_ENFORCE_LABEL = "pod-security.kubernetes.io/enforce"
"""Pod Security Admission label; the scheduler pod meets the ``restricted`` profile."""

Manifest = dict[str, Any]


def labels(spec: BinPackSchedulerSpec) -> dict[str, str]:
    """Recommended ``app.kubernetes.io`` labels of every object; the first two select the pods."""
    return {
        "app.kubernetes.io/name": "kube-scheduler",
        "app.kubernetes.io/instance": spec.name,
        "app.kubernetes.io/component": "scheduler",
        "app.kubernetes.io/managed-by": "gpuready",
    }


def selector_labels(spec: BinPackSchedulerSpec) -> dict[str, str]:
    """The Deployment's pod selector (immutable once created, so it holds only the stable labels)."""
    return {"app.kubernetes.io/name": "kube-scheduler", "app.kubernetes.io/instance": spec.name}


def scheduler_objects(spec: BinPackSchedulerSpec) -> dict[str, Manifest]:
    """Every object, keyed by a stable suffix for resource names; the Namespace first, the Deployment last."""
    configuration = configuration_yaml(spec)  # written once: the ConfigMap holds it, the Deployment its hash
    return {
        "namespace": namespace(spec),
        "service-account": service_account(spec),
        "as-kube-scheduler": _cluster_role_binding(spec, "as-kube-scheduler", "system:kube-scheduler"),
        "as-volume-scheduler": _cluster_role_binding(spec, "as-volume-scheduler", "system:volume-scheduler"),
        "auth-reader": authentication_reader_binding(spec),
        "leader-election": leader_election_role(spec),
        "leader-election-binding": leader_election_binding(spec),
        "config": config_map(spec, configuration),
        "deployment": deployment(spec, configuration),
    }


def namespace(spec: BinPackSchedulerSpec) -> Manifest:
    return {
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": {"name": spec.namespace, "labels": {**labels(spec), PSA_ENFORCE_LABEL: "restricted"}},
    }


def service_account(spec: BinPackSchedulerSpec) -> Manifest:
    return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": _metadata(spec, spec.name)}


def authentication_reader_binding(spec: BinPackSchedulerSpec) -> Manifest:
    """Read access to ``kube-system/extension-apiserver-authentication``; the binding lives in kube-system."""
    return {
        "apiVersion": f"{RBAC_API_GROUP}/v1",
        "kind": "RoleBinding",
        "metadata": {"name": f"{spec.name}-auth-reader", "namespace": namespaces.KUBE_SYSTEM, "labels": labels(spec)},
        "roleRef": {"apiGroup": RBAC_API_GROUP, "kind": "Role", "name": "extension-apiserver-authentication-reader"},
        "subjects": [_subject(spec)],
    }


def leader_election_role(spec: BinPackSchedulerSpec) -> Manifest:
    """The Lease rules ``system:kube-scheduler`` grants only for ``kube-scheduler``, for this scheduler's Lease.

    ``create`` cannot be limited to a name (RBAC "Referring to resources"), so it is granted on leases of the
    scheduler's namespace; ``get`` and ``update`` only on its own Lease.
    """
    leases = {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"]}
    return {
        "apiVersion": f"{RBAC_API_GROUP}/v1",
        "kind": "Role",
        "metadata": _metadata(spec, f"{spec.name}-leader-election"),
        "rules": [
            {**leases, "verbs": ["create"]},
            {**leases, "resourceNames": [spec.name], "verbs": ["get", "update"]},
        ],
    }


def leader_election_binding(spec: BinPackSchedulerSpec) -> Manifest:
    return {
        "apiVersion": f"{RBAC_API_GROUP}/v1",
        "kind": "RoleBinding",
        "metadata": _metadata(spec, f"{spec.name}-leader-election"),
        "roleRef": {"apiGroup": RBAC_API_GROUP, "kind": "Role", "name": f"{spec.name}-leader-election"},
        "subjects": [_subject(spec)],
    }


def config_map(spec: BinPackSchedulerSpec, configuration: str) -> Manifest:
    """``configuration``: ``configuration_yaml(spec)``."""
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": _metadata(spec, f"{spec.name}-config"),
        "data": {CONFIG_FILE: configuration},
    }


def deployment(spec: BinPackSchedulerSpec, configuration: str) -> Manifest:
    """The scheduler pods: off GPU nodes, non-root, probed on the secure port; ``configuration``'s hash on the pod
    template rolls them when it changes."""
    digest = hashlib.sha256(configuration.encode()).hexdigest()
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": _metadata(spec, spec.name),
        "spec": {
            "replicas": spec.replicas,
            "selector": {"matchLabels": selector_labels(spec)},
            "template": {
                "metadata": {"labels": labels(spec), "annotations": {CONFIG_HASH_ANNOTATION: digest}},
                "spec": pod_spec(spec),
            },
        },
    }


def pod_spec(spec: BinPackSchedulerSpec) -> Manifest:
    """Required node affinity ``gpuready.io/gpu-pool DoesNotExist`` and no GPU toleration keep it off GPU nodes."""
    probe = {"httpGet": {"path": "/healthz", "port": SECURE_PORT, "scheme": "HTTPS"}, "periodSeconds": 10}
    resources: Manifest = {"requests": {"cpu": spec.cpu_request, "memory": spec.memory_request}}
    if spec.memory_limit is not None:
        resources["limits"] = {"memory": spec.memory_limit}
    pod: Manifest = {
        "serviceAccountName": spec.name,
        "nodeSelector": {"kubernetes.io/os": "linux", **spec.node_selector},
        "affinity": {
            "nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {
                    "nodeSelectorTerms": [{"matchExpressions": [{"key": LABEL_GPU_POOL, "operator": "DoesNotExist"}]}]
                }
            },
            "podAntiAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {
                        "weight": 100,
                        "podAffinityTerm": {
                            "labelSelector": {"matchLabels": selector_labels(spec)},
                            "topologyKey": "kubernetes.io/hostname",
                        },
                    }
                ]
            },
        },
        "securityContext": {
            "runAsNonRoot": True,
            "runAsUser": NON_ROOT_UID,
            "runAsGroup": NON_ROOT_UID,
            "seccompProfile": {"type": "RuntimeDefault"},
        },
        "containers": [
            {
                "name": "kube-scheduler",
                "image": spec.image,
                "command": ["kube-scheduler", f"--config={CONFIG_PATH}"],
                "ports": [{"name": "https", "containerPort": SECURE_PORT, "protocol": "TCP"}],
                "livenessProbe": {**probe, "initialDelaySeconds": 15, "timeoutSeconds": 15, "failureThreshold": 8},
                "readinessProbe": {**probe, "timeoutSeconds": 15},
                "resources": resources,
                "securityContext": {
                    "allowPrivilegeEscalation": False,
                    "readOnlyRootFilesystem": True,
                    "capabilities": {"drop": ["ALL"]},
                },
                "volumeMounts": [{"name": "config", "mountPath": CONFIG_DIR, "readOnly": True}],
            }
        ],
        "volumes": [{"name": "config", "configMap": {"name": f"{spec.name}-config"}}],
    }
    if spec.tolerations:
        pod["tolerations"] = [t.to_k8s() for t in spec.tolerations]
    return pod


def _cluster_role_binding(spec: BinPackSchedulerSpec, suffix: str, cluster_role: str) -> Manifest:
    return {
        "apiVersion": f"{RBAC_API_GROUP}/v1",
        "kind": "ClusterRoleBinding",
        "metadata": {"name": f"{spec.name}-{suffix}", "labels": labels(spec)},
        "roleRef": {"apiGroup": RBAC_API_GROUP, "kind": "ClusterRole", "name": cluster_role},
        "subjects": [_subject(spec)],
    }


def _subject(spec: BinPackSchedulerSpec) -> dict[str, str]:
    return {"kind": "ServiceAccount", "name": spec.name, "namespace": spec.namespace}


def _metadata(spec: BinPackSchedulerSpec, name: str) -> Manifest:
    return {"name": name, "namespace": spec.namespace, "labels": labels(spec)}
