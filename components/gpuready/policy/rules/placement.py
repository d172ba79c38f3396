"""Rules on where GPU workloads land: secondary schedulers and explicit packing or spreading. Pure.

- A pod naming a scheduler other than ``default-scheduler`` stays Pending forever when no scheduler of that name
  runs (kubernetes.io "Configure Multiple Schedulers": "If the scheduler name is not specified ... default
  scheduler"; a named one must exist). In a stack, a scheduler exists when a ConfigMap holds a
  ``KubeSchedulerConfiguration`` with a profile of that ``schedulerName`` (what ``GpuBinPackingScheduler``
  creates), or when the policy config lists it as run elsewhere (``externalSchedulers``).
- A GPU Deployment with several replicas left to the default spreading score neither packs (so GPU capacity
  fragments) nor reliably spreads (no anti-affinity): say which one it wants (issue #6; kubernetes.io
  "Assigning Pods to Nodes", inter-pod affinity; "Pod Topology Spread Constraints").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from gpuready.core import yaml_text
from gpuready.core.props import as_list, as_mapping, as_number, as_text, dig
from gpuready.policy.rules.stack import Finding, StackResource
from gpuready.policy.rules.workloads import POD_SPEC_PATHS, claims_devices, requests_gpus

DEFAULT_SCHEDULER = "default-scheduler"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
SCHEDULER_CONFIG_KIND = "KubeSchedulerConfiguration"
REPLICATED_TYPES = frozenset({"kubernetes:apps/v1:Deployment", "kubernetes:apps/v1:StatefulSet"})
PACKING_SCHEDULER_HINT = "gpu-binpack"


def scheduler_names(resources: Sequence[StackResource]) -> set[str]:
    """Scheduler names the stack's ConfigMaps configure (``profiles[].schedulerName``)."""
    names: set[str] = set()
    for r in resources:
        if r.type != CONFIG_MAP:
            continue
        for text in (as_mapping(r.props.get("data")) or {}).values():
            if not isinstance(text, str) or SCHEDULER_CONFIG_KIND not in text:
                continue
            try:
                document = yaml_text.load(text)
            except yaml.YAMLError:
                continue
            if isinstance(document, Mapping) and document.get("kind") == SCHEDULER_CONFIG_KIND:
                for profile in as_list(document.get("profiles")):
                    name = as_text(dig(profile, "schedulerName"))
                    names.add(name or DEFAULT_SCHEDULER)
    return names


def scheduler_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """Workloads name only schedulers that exist: the default, one this stack configures, or a listed external one."""
    known = scheduler_names(resources) | {DEFAULT_SCHEDULER}
    external = {str(n) for n in as_list(config.get("externalSchedulers")) if isinstance(n, str)}
    findings = []
    for r in resources:
        path = POD_SPEC_PATHS.get(r.type)
        if path is None:
            continue
        name = as_text(dig(r.props, *path, "schedulerName"))
        if not name or name in known or name in external:
            continue
        field = ".".join((*path, "schedulerName"))
        have = ", ".join(sorted(known - {DEFAULT_SCHEDULER})) or "none"
        findings.append(
            Finding(
                r.urn,
                f"{r.type.rsplit(':', 1)[-1]} {r.name!r}: {field} is {name!r}, but this stack runs no scheduler of "
                f"that name (schedulers configured here: {have}), so its pods stay Pending. Deploy it in this stack "
                f"(GpuBinPackingScheduler with profile {name!r}), fix the name, or list it in the policy config "
                "externalSchedulers if another stack runs it",
            )
        )
    return findings


def spread_or_pack_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """A GPU Deployment/StatefulSet with more than one replica says whether its replicas pack or spread."""
    gpu = requests_gpus(resource_type, props) or claims_devices(resource_type, props)
    if resource_type not in REPLICATED_TYPES or not gpu:
        return []
    replicas = as_number(dig(props, "spec", "replicas"))
    if replicas is None or replicas <= 1:
        return []
    spec = as_mapping(dig(props, *POD_SPEC_PATHS[resource_type])) or {}
    affinity = as_mapping(spec.get("affinity")) or {}
    explicit = (
        affinity.get("podAffinity") is not None
        or affinity.get("podAntiAffinity") is not None
        or bool(as_list(spec.get("topologySpreadConstraints")))
        or as_text(spec.get("schedulerName")) not in (None, "", DEFAULT_SCHEDULER)
    )
    if explicit:
        return []
    return [
        f"{replicas:g} GPU replicas with neither packing nor spreading: the default scheduler's scoring spreads them "
        "loosely, which fragments GPU capacity without guaranteeing separate nodes. Spread replicas with required "
        "podAntiAffinity on kubernetes.io/hostname (and topologySpreadConstraints by zone), or pack them with "
        f"schedulerName: {PACKING_SCHEDULER_HINT!r} / preferred podAffinity on a group label "
        "(gpuready.core.workload.Placement)"
    ]
