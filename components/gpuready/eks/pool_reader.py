"""The reader of the resource the EKS node group provisioner writes: any program's ``aws:eks/nodeGroup:NodeGroup``.

Pure. A node group is a GPU pool when its instance types are GPU types (gpuready's catalog, else an NVIDIA EC2
family), or, with the instance types in a launch template, when its AMI type is an NVIDIA one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.capacity.pool_facts import PoolFacts, PoolReader, api_taint, cloud_pool, whole
from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig, text_map
from gpuready.eks import ami_types
from gpuready.eks.catalog import EKS_INSTANCE_TYPES, unlisted_gpu_type
from gpuready.eks.lifecycle import CREATION_ONLY


def read_node_group(props: Mapping[str, Any]) -> tuple[PoolFacts, ...]:
    """The GPU pool a node group declares (none or one)."""
    types = tuple(t for t in as_list(props.get("instanceTypes")) if isinstance(t, str))
    listed = [EKS_INSTANCE_TYPES[t] for t in types if t in EKS_INSTANCE_TYPES]
    ami = as_text(props.get("amiType")) or ""
    gpu = bool(listed) or any(unlisted_gpu_type(t) for t in types)
    if not types:  # instance types from a launch template: only the AMI type tells
        gpu = "NVIDIA" in ami or ami.endswith("_GPU")
    if not gpu:
        return ()
    model, arch = (GPU_MODELS[listed[0].gpu], listed[0].arch) if listed else (None, None)
    raw_taints = as_list(props.get("taints"))
    scaling = as_mapping(props.get("scalingConfig")) or {}
    low, high = as_number(scaling.get("minSize")), as_number(scaling.get("maxSize"))
    pool = cloud_pool(
        "eks",
        "node-group",
        props,
        name=as_text(props.get("nodeGroupName")) or "",
        instance_types=types,
        model=model,
        arch=arch,
        taints=tuple(t for t in (api_taint(e) for e in raw_taints) if t is not None),
        labels=text_map(props.get("labels")),
        fields=("taints", "labels"),
        min_size_fields=("scalingConfig.minSize",),
        max_nodes=whole(dig(props, "scalingConfig", "maxSize")),
        desired_nodes=whole(dig(props, "scalingConfig", "desiredSize")),
        gpus_per_node=listed[0].gpus if listed else None,
        driver_owner=f"the EKS NVIDIA AMI ({ami})" if ami_types.has_nvidia_driver(ami) else "",
        platform_plugin="Bottlerocket NVIDIA" if ami.startswith("BOTTLEROCKET_") else "",
        image=ami_types.node_image(props, types, arch),
        creation_only=CREATION_ONLY if low is not None and high is not None and high > low else (),
    )
    return (pool,)


NODE_GROUP_READER = PoolReader(
    read_node_group,
    {"instanceTypes": "list", "scalingConfig": "object", "taints": "list", "labels": "object"},
    frozenset({"image"}),
)
"""The node group's reader, with the shapes of the fields it reads."""
