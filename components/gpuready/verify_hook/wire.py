"""An ``Expectation`` as plain JSON-able data and back, so it can cross into the dynamic provider process. Pure.

Pulumi sends every number as a protobuf double, so whole floats are turned back into ints on the way in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.core.fabric.model import FABRIC_KINDS, NodeFabric
from gpuready.core.health.smoke_image import DEFAULT_SMOKE_IMAGE
from gpuready.core.health.smoke_job import SmokeJob, smoke_job
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint
from gpuready.verify.expectations import Expectation

_INT_FIELDS = ("gpus_per_node", "replicas", "gke_shared_clients", "expected_nodes")
"""Wire keys of whole numbers; ``gke_*`` keep the names they had when only GKE labelled its sharing, so the
verification resource's inputs of deployed stacks do not change (``cloud_*`` fields of ``Expectation``)."""


def expectation_to_data(expectation: Expectation) -> dict[str, Any]:
    """Every field of ``expectation`` as str/int/bool/None, lists and dicts; the advertiser only when it is not
    extended resources, the provisioner only for an elastic pool and the DRA devices only when there are some (so
    the verification resource's inputs, and the plans of node-group pools, stay as they were)."""
    advertiser = {} if expectation.advertiser == EXTENDED_RESOURCES.key else {"advertiser": expectation.advertiser}
    elastic = {"elastic": True, "provisioner": expectation.provisioner} if expectation.elastic else {}
    devices = {"devices": dict(sorted(expectation.devices.items()))} if expectation.devices else {}
    fabric = {"fabric": _fabric_to_data(expectation.fabric)} if expectation.fabric is not None else {}
    return {
        "pool": expectation.pool,
        "accelerator": expectation.accelerator,
        "gpus_per_node": expectation.gpus_per_node,
        "labels": dict(sorted(expectation.labels.items())),
        "taints": [{"key": t.key, "value": t.value, "effect": t.effect} for t in expectation.taints],
        "allocatable": dict(sorted(expectation.allocatable.items())),
        "replicas": expectation.replicas,
        "mig": expectation.mig,
        "gke_partition_size": expectation.cloud_partition_size,
        "gke_shared_clients": expectation.cloud_shared_clients,
        "gfd_expected": expectation.gfd_expected,
        "exact_taint_values": expectation.exact_taint_values,
        "expected_nodes": expectation.expected_nodes,
        **advertiser,
        **elastic,
        **devices,
        **fabric,
    }


def expectation_from_data(data: Mapping[str, Any]) -> Expectation:
    """The inverse of ``expectation_to_data``; accepts floats where ints belong (Pulumi's wire format)."""
    ints = {name: _int(data.get(name)) for name in _INT_FIELDS}
    return Expectation(
        pool=_str(data.get("pool")),
        accelerator=_str(data.get("accelerator")),
        gpus_per_node=ints["gpus_per_node"],
        labels={str(k): str(v) for k, v in (data.get("labels") or {}).items()},
        taints=tuple(
            Taint(key=str(t["key"]), value=str(t.get("value") or ""), effect=t.get("effect") or "NoSchedule")
            for t in data.get("taints") or ()
        ),
        allocatable={str(k): int(v) for k, v in (data.get("allocatable") or {}).items()},
        replicas=ints["replicas"],
        mig=bool(data.get("mig")),
        cloud_partition_size=_str(data.get("gke_partition_size")),
        cloud_shared_clients=ints["gke_shared_clients"],
        gfd_expected=bool(data.get("gfd_expected")),
        exact_taint_values=bool(data.get("exact_taint_values", True)),
        expected_nodes=ints["expected_nodes"] or 0,
        elastic=bool(data.get("elastic")),
        provisioner=_str(data.get("provisioner")) or "",
        advertiser=_str(data.get("advertiser")) or EXTENDED_RESOURCES.key,
        devices={str(k): int(v) for k, v in (data.get("devices") or {}).items()},
        fabric=_fabric_from_data(data.get("fabric")),
    )


def _fabric_to_data(fabric: NodeFabric) -> dict[str, Any]:
    return {"kind": fabric.kind, "resources": dict(sorted(fabric.resources.items())),
            "missing_cause": fabric.missing_cause, "short_cause": fabric.short_cause, "fix": fabric.fix}  # fmt: skip


def _fabric_from_data(data: Any) -> NodeFabric | None:
    if not isinstance(data, Mapping):
        return None
    kind = str(data["kind"])
    if kind not in FABRIC_KINDS:
        raise ValueError(f"fabric.kind: not a fabric kind; got {kind!r}, allowed: {', '.join(FABRIC_KINDS)}")
    return NodeFabric(
        kind=kind,
        resources={str(k): int(v) for k, v in (data.get("resources") or {}).items()},
        missing_cause=str(data.get("missing_cause") or ""),
        short_cause=str(data.get("short_cause") or ""),
        fix=str(data.get("fix") or ""),
    )


def _int(value: Any) -> int | None:
    return None if value is None else int(value)


def _str(value: Any) -> str | None:
    return None if value is None else str(value)


SMOKE_NAMESPACE = "default"
PLANNED_RUN = "planned"
"""The run id of a smoke Job planned by the stack program; the provider gives each run its own (``rerun``)."""


def smoke_to_data(spec: GpuPoolSpec, image: str | None, nccl_image: str | None = None) -> dict[str, Any]:
    """The pool's smoke Job as plain data for the provider process (its run id and deadline set when it runs);
    ``nccl_image``: a fabric pool's two-node all-reduce image (None: its fabric's default)."""
    planned = smoke_job(spec, image=image or DEFAULT_SMOKE_IMAGE, namespace=SMOKE_NAMESPACE, run=PLANNED_RUN,
                        deadline_seconds=1, nccl_image=nccl_image)  # fmt: skip
    return {"pool": planned.pool, "namespace": planned.namespace, "name": planned.name,
            "objects": [dict(o) for o in planned.objects]}  # fmt: skip


def smoke_from_data(data: Mapping[str, Any]) -> SmokeJob:
    """The inverse of ``smoke_to_data`` (whole floats back to ints: Pulumi's wire format)."""
    return SmokeJob(str(data["pool"]), str(data["namespace"]), str(data["name"]),
                    tuple(_ints(o) for o in data.get("objects") or ()))  # fmt: skip


def _ints(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {str(k): _ints(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_ints(v) for v in value]
    return value
