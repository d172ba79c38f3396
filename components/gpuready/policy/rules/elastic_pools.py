"""The GPU NodePools and ComputeClasses among any program's raw objects, as the provisioners' readers read them. Pure.

The objects are Kubernetes custom resources (``pulumi_kubernetes.apiextensions.CustomResource`` or a typed class
generated from the CRD: both register ``kubernetes:<apiVersion>:<kind>``). Each elastic provisioner owns the reader
of the object it writes (``Provisioner.readers``: the Karpenter ones share ``core.capacity.karpenter_reader``, GKE
ComputeClasses are read by ``gpuready.gke.pool_reader``); which objects are GPU pools is said there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.capacity.pool_facts import PoolFacts
from gpuready.core.capacity.readers import elastic_types, read_pools
from gpuready.core.capacity.registry import provisioner_types

ELASTIC_TYPES = elastic_types()
"""Pulumi types of the objects elastic provisioners read (NodePool, ComputeClass)."""
NODE_POOL_TYPES = provisioner_types(
    lambda p: (p.node_facts.object_type,) if p.node_facts is not None and p.node_facts.node_class_group else ()
)
"""Types of Karpenter NodePools (those that reference a node class)."""

ElasticPool = PoolFacts
"""A GPU NodePool or ComputeClass: the one normalised record, with its ``kind`` and ``why``."""


def elastic_pools(resource_type: str, props: Mapping[str, Any]) -> list[PoolFacts]:
    """The GPU pool a NodePool or ComputeClass declares (none or one)."""
    return list(read_pools(resource_type, props)) if resource_type in ELASTIC_TYPES else []
