"""Stand-in fixtures, a pool spec with two expected nodes, and stand-in nodes built from its expectation."""

from __future__ import annotations

from typing import Any

from gpuready.core.specs import GpuPoolSpec
from gpuready.verify.expectations import expectation_for
from gpuready.verify_hook.wire import expectation_to_data
from tests.core.conftest import DEFAULT_INSTANCE_TYPES
from tests.kube_standin import make_node
from tests.kube_standin.conftest import kube_standin, kubeconfig_path

__all__ = ["kube_standin", "kubeconfig_path"]


def pool_spec(name: str = "gpu", nodes: int = 2) -> GpuPoolSpec:
    """An EKS L4 pool (one GPU per g6.xlarge) that starts with ``nodes`` nodes."""
    return GpuPoolSpec(
        cloud="eks", name=name, instance_type=DEFAULT_INSTANCE_TYPES["eks"], min_size=nodes, max_size=nodes + 2
    )


def props(spec: GpuPoolSpec, kubeconfig: str, timeout: float = 5.0, **extra: Any) -> dict[str, Any]:
    """The provider's props as the engine would send them for ``spec``."""
    return {
        "pool": spec.name,
        "expectation": expectation_to_data(expectation_for(spec)),
        "kubeconfig": kubeconfig,
        "context": "",
        "timeout": timeout,
        "triggers": [],
        **extra,
    }


def pool_node(spec: GpuPoolSpec, name: str, *, drop: tuple[str, ...] = ()) -> dict[str, Any]:
    """A healthy node of ``spec``'s pool as the kubelet registers it, without the labels in ``drop``."""
    expectation = expectation_for(spec)
    labels = {k: v for k, v in expectation.labels.items() if k not in drop}
    return make_node(
        name,
        labels=labels,
        taints=[{"key": t.key, "value": t.value, "effect": t.effect} for t in expectation.taints],
        capacity={k: str(v) for k, v in expectation.allocatable.items()},
        instance_type=spec.resolved.gpu.instance_type,
    )
