"""Rules on how a workload asks for GPUs against how its pool advertises them (device plugin or DRA). Pure.

A pool's GPUs reach the scheduler one way (``core.advertisers``): as extended resources (``nvidia.com/gpu``, from
the NVIDIA device plugin) or as devices in ResourceSlices claimed through the DeviceClasses ``gpu.nvidia.com`` and
``mig.nvidia.com`` (NVIDIA's DRA driver; chart ``dra-driver-nvidia-gpu`` 0.4.0 refuses to run beside the device
plugin on one node, ``templates/validation.yaml``). A pod that claims DRA devices on a device-plugin pool, or asks
for ``nvidia.com/gpu`` on a DRA pool, stays Pending; one that asks both ways would be handed the same GPUs twice
where both ran. Pools are read from any program (``gpu_pools``), their way of advertising from their labels
(``advertisers.registry.advertiser_for_labels``: gpuready marks DRA pools ``gpuready.io/advertise=dra``); a pod
aims at a pool when its ``nodeSelector`` and required node affinity match the pool's labels. Claims are resolved
through the stack's ResourceClaimTemplates and ResourceClaims (any ``resource.k8s.io`` version).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.advertisers.registry import ADVERTISERS, advertiser_for_labels
from gpuready.core.props import as_list, as_text, dig, text_map
from gpuready.policy.rules.gpu_pools import describe, gpu_pools
from gpuready.policy.rules.k8s import node_selector_term_matches, selector_matches
from gpuready.policy.rules.stack import Finding, StackResource
from gpuready.policy.rules.workloads import gpu_requests, pod_spec

RESOURCE_GROUP = "kubernetes:resource.k8s.io/"
CLAIM_KINDS = ("ResourceClaimTemplate", "ResourceClaim")
CLAIM_TYPES = frozenset(f"{RESOURCE_GROUP}{v}:{k}" for v in ("v1", "v1beta1", "v1beta2") for k in CLAIM_KINDS)
"""The claim objects a pod's ``resourceClaims`` name, in every served ``resource.k8s.io`` version."""


def device_classes(resources: Sequence[StackResource]) -> dict[tuple[str, str], set[str]]:
    """(kind, name) -> DeviceClasses each ResourceClaimTemplate / ResourceClaim of the stack requests."""
    found: dict[tuple[str, str], set[str]] = {}
    for r in resources:
        if r.type not in CLAIM_TYPES:
            continue
        kind = r.type.rsplit(":", 1)[-1]
        name = as_text(dig(r.props, "metadata", "name")) or r.name
        spec = dig(r.props, "spec", "spec") if kind == "ResourceClaimTemplate" else dig(r.props, "spec")
        classes: set[str] = set()
        for request in as_list(dig(spec, "devices", "requests")):
            for part in (request, dig(request, "exactly"), *as_list(dig(request, "firstAvailable"))):
                name_ = as_text(dig(part, "deviceClassName"))
                if name_:
                    classes.add(name_)
        found[(kind, name)] = classes
    return found


def _claimed_classes(spec: Mapping[str, Any], classes: Mapping[tuple[str, str], set[str]]) -> set[str]:
    """GPU DeviceClasses the pod's ``resourceClaims`` claim (some advertiser serves them)."""
    claimed: set[str] = set()
    for claim in as_list(spec.get("resourceClaims")):
        for kind, key in (
            ("ResourceClaimTemplate", "resourceClaimTemplateName"),
            ("ResourceClaim", "resourceClaimName"),
        ):
            name = as_text(dig(claim, key))
            if name:
                claimed |= classes.get((kind, name), set())
    return {c for c in claimed if any(a.serves_device_class(c) for a in ADVERTISERS)}


def _aims_at(spec: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """Whether the pod's ``nodeSelector`` and required node affinity pick a node with ``labels``."""
    selector = text_map(spec.get("nodeSelector"))
    terms = as_list(dig(spec, "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
                        "nodeSelectorTerms"))  # fmt: skip
    if not selector and not terms:
        return False
    if not selector_matches(selector, labels):
        return False
    return not terms or any(node_selector_term_matches(t, labels) for t in terms)


def advertiser_mismatch_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """A GPU pod asks for GPUs the way the pools it aims at advertise them, and only one way."""
    classes = device_classes(resources)
    pools = [(describe(p, r.name), p) for r in resources for p in gpu_pools(r.type, r.props)]
    findings: list[Finding] = []
    for r in resources:
        found = pod_spec(r.type, r.props)
        if found is None:
            continue
        path, spec = found
        what = f"{r.type.rsplit(':', 1)[-1]} {r.name!r}"
        field = ".".join(path)
        claimed = sorted(_claimed_classes(spec, classes))
        extended = sorted({g.resource for g in gpu_requests(r.type, r.props)})
        if claimed and extended:
            findings.append(Finding(r.urn, (
                f"{what}: asks for GPUs both ways, {', '.join(extended)} in its containers' limits and DRA devices "
                f"of {', '.join(claimed)} in {field}.resourceClaims; a node serves one or the other, never both (the "
                "DRA driver refuses to run beside the device plugin), so the pod never schedules. Keep one: the "
                "claim on a DRA pool (gpu_workload on a pool with advertise: dra) or the limits on a device-plugin pool"
            )))  # fmt: skip
            continue
        for label, pool in pools:
            if not _aims_at(spec, pool.labels):
                continue
            advertiser = advertiser_for_labels(pool.labels)
            wrong_claims = [c for c in claimed if not advertiser.serves_device_class(c)]
            wrong_limits = [e for e in extended if not advertiser.is_gpu_resource(e)]
            if wrong_claims:
                findings.append(Finding(r.urn, (
                    f"{what}: claims DRA devices of {', '.join(wrong_claims)} ({field}.resourceClaims) but its node "
                    f"selection aims at GPU pool {label}, whose GPUs the device plugin advertises as nvidia.com/gpu; "
                    "no ResourceSlice serves the claim there, so the pod stays Pending. Request nvidia.com/gpu "
                    "instead, or aim it at a DRA pool (advertise: dra, label gpuready.io/advertise=dra)"
                )))  # fmt: skip
            if wrong_limits:
                findings.append(Finding(r.urn, (
                    f"{what}: requests {', '.join(wrong_limits)} in its containers' limits but its node selection "
                    f"aims at GPU pool {label}, a DRA pool whose nodes advertise no extended GPU resources, so the pod "
                    "stays Pending. Claim the GPUs through a ResourceClaimTemplate of DeviceClass gpu.nvidia.com or "
                    "mig.nvidia.com (gpu_workload on that pool emits one), or aim it at a device-plugin pool"
                )))  # fmt: skip
    return findings
