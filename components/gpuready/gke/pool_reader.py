"""The readers of the resources the GKE provisioners write: any program's ``gcp:container/nodePool:NodePool`` and
``cloud.google.com/v1`` ComputeClass. Pure.

A node pool is a GPU pool when its machine type is a GPU type (gpuready's catalog, else a GPU machine family) or
its node config attaches NVIDIA accelerators. A ComputeClass is a GPU class when one of its ``spec.priorities``
has a ``gpu`` or a GPU machine type or family (``a2-highgpu-1g``, ``g2``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.capacity.gpu_types import gpu_instance_type
from gpuready.core.capacity.node_facts import NodeFacts
from gpuready.core.capacity.pool_facts import (
    PoolFacts,
    PoolReader,
    ShapeKind,
    SharedClients,
    api_taint,
    cloud_pool,
    whole,
)
from gpuready.core.capacity.pool_settings import MigSetting
from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.gke.catalog import GKE_MACHINE_TYPES, GKE_MIG_MODELS, gpu_family, gpu_for_accelerator, unlisted_gpu_type
from gpuready.gke.lifecycle import CREATION_ONLY
from gpuready.gke.plan import DRIVER_INSTALLATION_DISABLED, LABEL_NO_DEVICE_PLUGIN, MAX_SHARED_CLIENTS


def accelerators(node_config: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The ``guestAccelerators`` entries of a node pool's ``nodeConfig`` that attach at least one NVIDIA GPU."""
    found = []
    for entry in as_list(node_config.get("guestAccelerators")):
        mapping = as_mapping(entry)
        if mapping is None:
            continue
        count = as_number(mapping.get("count"))
        kind = as_text(mapping.get("type")) or ""
        if kind.startswith("nvidia-") and (count is None or count > 0):
            found.append(mapping)
    return found


def read_node_pool(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pool a node pool declares (none or one)."""
    config = as_mapping(props.get("nodeConfig")) or {}
    machine = as_text(config.get("machineType")) or ""
    attached = accelerators(config)
    listed = GKE_MACHINE_TYPES.get(machine)
    if not attached and listed is None and not unlisted_gpu_type(machine):
        return ()
    model = GPU_MODELS[listed.gpu] if listed else None
    gpus = listed.gpus if listed else None
    for accelerator in attached:
        found = gpu_for_accelerator(as_text(accelerator.get("type")) or "")
        if found is not None:  # the attached accelerators are the machine's GPUs (GKE: one entry per GPU type)
            model, gpus = found, whole(accelerator.get("count"))
    raw_taints = as_list(config.get("taints"))
    labels = text_map(config.get("labels"))
    version = driver_version(config)
    off = labels.get(LABEL_NO_DEVICE_PLUGIN) == "true"
    pool = cloud_pool(
        "gke",
        "node-pool",
        props,
        name=as_text(props.get("name")) or "",
        instance_types=(machine,) if machine else (),
        model=model,
        arch=listed.arch if listed else None,
        taints=tuple(t for t in (api_taint(e) for e in raw_taints) if t is not None),
        labels=labels,
        fields=("nodeConfig.taints", "nodeConfig.labels"),
        min_size_fields=("autoscaling.minNodeCount", "autoscaling.totalMinNodeCount"),
        max_nodes=_max_nodes(props),
        desired_nodes=whole(props.get("initialNodeCount")),
        gpus_per_node=gpus,
        creation_only=CREATION_ONLY if props.get("autoscaling") is not None and "initialNodeCount" in props else (),
        shared_clients=_shared_clients(config),
        mig=_mig(config),
        driver_owner=f"GKE (gpuDriverVersion={version!r})" if version != DRIVER_INSTALLATION_DISABLED else "",
        platform_plugin="" if off or version == DRIVER_INSTALLATION_DISABLED else "GKE",
    )
    return (pool,)


def _mig(node_config: Mapping[str, Any]) -> tuple[MigSetting, ...]:
    """The ``gpuPartitionSize`` each accelerator asks of its GPUs (GKE MIG: named by the GPU's own profiles)."""
    found = []
    for index, accelerator in enumerate(accelerators(node_config)):
        size = as_text(accelerator.get("gpuPartitionSize"))
        attached = gpu_for_accelerator(as_text(accelerator.get("type")) or "")
        if size is None or attached is None:
            continue
        partitions = attached.mig is not None and attached.key in GKE_MIG_MODELS
        found.append(
            MigSetting(
                field=f"nodeConfig.guestAccelerators[{index}].gpuPartitionSize",
                profile=size,
                gpu=attached.display,
                offered=tuple(attached.mig.profiles) if attached.mig is not None and partitions else None,
                shown=tuple(p for p in attached.mig.profiles if "+" not in p) if attached.mig is not None else None,
                cannot=f"GKE cannot partition {attached.display} GPUs",
                fix="Remove gpuPartitionSize",
            )
        )
    return tuple(found)


def _shared_clients(node_config: Mapping[str, Any]) -> tuple[SharedClients, ...]:
    """Each accelerator's ``gpuSharingConfig.maxSharedClientsPerGpu`` (pulumi_gcp 10.2.0
    ``container/_inputs.py`` NodePoolNodeConfigGuestAcceleratorGpuSharingConfig), up to ``MAX_SHARED_CLIENTS``."""
    return tuple(
        SharedClients(
            f"nodeConfig.guestAccelerators[{index}].gpuSharingConfig.maxSharedClientsPerGpu",
            clients,
            MAX_SHARED_CLIENTS,
            "gpuSharingConfig",
        )
        for index, accelerator in enumerate(accelerators(node_config))
        if (clients := dig(accelerator, "gpuSharingConfig", "maxSharedClientsPerGpu")) is not None
    )


def driver_version(node_config: Mapping[str, Any]) -> str:
    """``gpuDriverVersion`` of a node pool's accelerators; ``DEFAULT`` when unset (GKE >= 1.30.1 installs it)."""
    for accelerator in accelerators(node_config):
        version = as_text(dig(accelerator, "gpuDriverInstallationConfig", "gpuDriverVersion"))
        if version:
            return version
    return "DEFAULT"


def _max_nodes(props: Mapping[str, Any]) -> int | None:
    """The most nodes of the pool in all its zones: ``autoscaling.totalMaxNodeCount``, else the per-zone maximum
    (``autoscaling.maxNodeCount``, or ``nodeCount`` without autoscaling) times its ``nodeLocations`` (None when it
    names none: the cluster's zones are not in the resource)."""
    autoscaling = as_mapping(props.get("autoscaling"))
    total = whole(dig(autoscaling, "totalMaxNodeCount"))
    if total is not None:
        return total
    per_zone = whole(autoscaling.get("maxNodeCount") if autoscaling is not None else props.get("nodeCount"))
    zones = len(as_list(props.get("nodeLocations")))
    return per_zone * zones if per_zone is not None and zones else None


def read_compute_class(props: Mapping[str, Any], facts: NodeFacts) -> tuple[PoolFacts, ...]:
    """The GPU pool a ComputeClass declares (none or one), its instance types the machine types of its GPU
    priorities; ``facts``: the ComputeClass provisioner's."""
    why, model, machines, gpus = "", None, [], None
    for index, rule in enumerate(as_list(dig(props, "spec", "priorities"))):
        gpu = as_mapping(dig(rule, "gpu"))
        machine = as_text(dig(rule, "machineType")) or ""
        family = as_text(dig(rule, "machineFamily")) or ""
        found = gpu_instance_type(machine) if machine else None
        if gpu is not None or found is not None or (family and gpu_family(family)):
            what = f"gpu {as_text(gpu.get('type'))}" if gpu is not None else machine or family
            if not why:  # the first GPU priority's GPUs per node
                why = f"spec.priorities[{index}] {what}"
                gpus = whole(gpu.get("count")) if gpu is not None else found[1].gpus if found and found[1] else None
            machines += [machine] if machine and machine not in machines else []
            if gpu is not None:
                model = model or gpu_for_accelerator(as_text(gpu.get("type")) or "")
            if found is not None and found[1] is not None:
                model = model or GPU_MODELS[found[1].gpu]
    if not why:
        return ()
    config = as_mapping(dig(props, "spec", "nodePoolConfig")) or {}
    raw_taints = as_list(config.get("taints"))
    labels = text_map(config.get("nodeLabels"))
    profile = cloud_profile("gke")
    pool = PoolFacts(
        cloud="gke",
        provisioner="compute-class",
        kind="ComputeClass",
        name=as_text(dig(props, "metadata", "name")) or "",
        props=props,
        reading=profile,
        catalog=profile,
        why=why,
        instance_types=tuple(machines),
        model=model,
        taints=tuple(t for t in (api_taint(e) for e in raw_taints) if t is not None),
        taints_field=facts.taints_path,
        raw_taints=raw_taints,
        labels=labels,
        labels_field=facts.labels_path,
        gpus_per_node=gpus,
        elastic=True,
        title=facts.title,
        untainted_note=facts.untainted_note,
        reservation_terms=facts.reservation_terms,
        platform_plugin=facts.plugin_on(labels),
    )
    return (pool,)


NODE_POOL_READER = PoolReader(
    read_node_pool,
    {
        "nodeConfig": "object",
        "nodeConfig.guestAccelerators": "list",
        "nodeConfig.taints": "list",
        "nodeConfig.labels": "object",
        "autoscaling": "object",
        "nodeLocations": "list",
    },
    frozenset({"sharing"}),
)
"""The node pool's reader, with the shapes of the fields it reads."""
COMPUTE_CLASS_SHAPE: Mapping[str, ShapeKind] = {
    "spec": "object",
    "spec.priorities": "list",
    "spec.nodePoolConfig": "object",
    "spec.nodePoolConfig.taints": "list",
    "spec.nodePoolConfig.nodeLabels": "object",
}
"""The shapes of the fields the ComputeClass reader reads."""
