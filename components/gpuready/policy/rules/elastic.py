"""Rules on elastic GPU pools: Karpenter / EKS Auto Mode / AKS NAP NodePools and GKE ComputeClasses. Pure.

``(resource_type, props, config) -> messages``, on raw objects of any program (``elastic_pools`` says which are GPU
pools). Facts, from the ``karpenter.sh/v1`` NodePool CRD (kubernetes-sigs/karpenter, as in
``../shared/reference/upstream/karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml``):

- ``spec.template.spec.taints`` are the only taints a NodePool's nodes get for good (``startupTaints`` are removed
  once the node is initialised); Karpenter adds no GPU taint, so an untainted GPU NodePool takes any pending pod.
- ``spec.limits`` bounds what the NodePool launches (``nvidia.com/gpu`` counts GPUs); without it Karpenter launches
  GPU instances for as long as pods are pending. With ``spec.replicas`` (a static NodePool) only ``limits.nodes``
  is allowed and the count is fixed: no GPU limit is needed.
- ``disruption.consolidationPolicy`` defaults to ``WhenEmptyOrUnderutilized``; that and ``Balanced`` delete nodes
  that still run pods when the pods fit elsewhere, only ``WhenEmpty`` waits for a node to be empty.
  ``consolidateAfter: Never`` turns consolidation off; a budget ``nodes: "0"`` that is always active (no
  ``schedule``) and applies to ``Underutilized`` (no ``reasons``, or listing it) blocks it; ``spec.replicas`` makes
  the policy ignored.

A ComputeClass has ``nodePoolConfig.taints``; GKE taints GPU nodes itself only when the cluster has a non-GPU node
pool (GKE docs, "Run GPUs in Standard node pools"; shared reference clouds.md 4.2), so, as for GKE node pools, the
taint is declared. A ComputeClass has no GPU limit and no consolidation policy: those rules are NodePools' only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core import scheduling
from gpuready.core.capacity.karpenter_nodepool import GPU_LIMIT
from gpuready.core.capacity.karpenter_reader import DEFAULT_CONSOLIDATION
from gpuready.core.capacity.pool_facts import API_EFFECTS
from gpuready.core.conventions import gpu_taint_of
from gpuready.core.k8s_syntax import TAINT_EFFECTS
from gpuready.core.props import as_text, dig, show
from gpuready.policy.rules.elastic_pools import elastic_pools
from gpuready.policy.rules.k8s import GPU_TAINT, parse_quantity

K8S_GPU_TAINT = scheduling.to_k8s_taint(GPU_TAINT)
"""The GPU taint as a NodePool or ComputeClass spells it: ``{key, value: present, effect: NoSchedule}``."""
SAFE_CONSOLIDATION = "WhenEmpty"
DO_NOT_DISRUPT = "karpenter.sh/do-not-disrupt"
"""The pod annotation that keeps Karpenter from disrupting a node the pod runs on (kubernetes-sigs/karpenter)."""


def taint_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU NodePool or ComputeClass puts ``nvidia.com/gpu`` with effect NoSchedule on its nodes."""
    problems = []
    for pool in elastic_pools(resource_type, props):
        for index, entry in enumerate(pool.raw_taints):
            effect = as_text(dig(entry, "effect"))
            if effect is not None and effect not in TAINT_EFFECTS:
                problems.append(
                    f"{pool.taints_field}[{index}].effect: {effect!r} is not a Kubernetes taint effect (a {pool.kind} "
                    f"spells them {', '.join(TAINT_EFFECTS)}), so the API server refuses the object. Use "
                    f"{API_EFFECTS.get(effect, 'NoSchedule')!r}"
                )
        taints = pool.taints
        wanted = gpu_taint_of(config)
        fix = scheduling.to_k8s_taint(wanted)
        gpu = [t for t in taints if t.key == wanted.key]
        field = pool.taints_field
        if not gpu:
            problems.append(
                f"{field}: GPU {pool.kind} ({pool.why}) has no {wanted.key} NoSchedule taint, so "
                f"{pool.untainted_note}; got {show(pool.raw_taints)}. Add {fix!r} to {field}"
            )
        elif not any(t.effect == "NoSchedule" for t in gpu):
            problems.append(
                f"{field}: the {wanted.key} taint has effect {gpu[0].effect!r}, which does not keep other pods off "
                f"the GPU nodes (effects are spelt as in Kubernetes here: NoSchedule). Use {fix!r}"
            )
    return problems


def limit_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU NodePool bounds its GPUs with an ``nvidia.com/gpu`` limit (a static NodePool with ``replicas`` aside)."""
    problems = []
    for pool in elastic_pools(resource_type, props):
        if pool.kind != "NodePool" or pool.fixed_count:
            continue
        limits = pool.limits
        per_node = "<nodes x GPUs per node>"
        if GPU_LIMIT not in limits:
            problems.append(
                f"spec.limits: GPU NodePool ({pool.why}) has no {GPU_LIMIT} limit, so Karpenter keeps launching GPU "
                f"instances for as long as pods are pending, with no bound on GPUs or cost; got {show(limits)}. "
                f"Add {GPU_LIMIT!r}: {per_node!r} to spec.limits"
            )
        elif parse_quantity(limits[GPU_LIMIT]) is None:
            problems.append(
                f"spec.limits.{GPU_LIMIT}: {show(limits[GPU_LIMIT])} is not a quantity. Set it to a whole number of "
                f"GPUs, {per_node}"
            )
    return problems


def disruption_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU NodePool's consolidation never deletes a node that still runs GPU pods."""
    problems = []
    for pool in elastic_pools(resource_type, props):
        if pool.kind != "NodePool" or pool.fixed_count:
            continue
        policy = pool.consolidation
        if (policy or DEFAULT_CONSOLIDATION) == SAFE_CONSOLIDATION or pool.consolidation_blocked:
            continue
        got = f"{policy!r}" if policy else f"not set (the default, {DEFAULT_CONSOLIDATION!r})"
        problems.append(
            f"spec.disruption.consolidationPolicy: {got} on a GPU NodePool ({pool.why}): Karpenter deletes GPU nodes "
            "that still run pods whenever it can fit those pods elsewhere or on a cheaper node, evicting running "
            f"training jobs. Set consolidationPolicy: {SAFE_CONSOLIDATION!r} with consolidateAfter (e.g. '10m'), or "
            "add the budget {'nodes': '0', 'reasons': ['Underutilized']}, or annotate the GPU pods "
            f"{DO_NOT_DISRUPT}: 'true'"
        )
    return problems
