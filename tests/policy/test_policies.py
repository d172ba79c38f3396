"""The pack's policy objects: names, metadata, config schemas, and what the engine really hands a policy."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from pulumi_policy import (
    EnforcementLevel,
    PolicyCustomTimeouts,
    PolicyResourceOptions,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
)

from gpuready.core.conventions import GPU_TAINT_SCHEMA
from gpuready.offline.analyzer import analyze_run
from gpuready.policy.policies import PACK_NAME, POLICIES
from gpuready.policy.scoped import ScopedResourcePolicy, ScopedStackPolicy
from tests.policy.builders import EKS, eks
from tests.policy.harness import resource, run_of

PACK_DIR = Path(__file__).resolve().parents[2] / "policies" / "gpu_conventions"
MANDATORY = {
    "gpu-node-pool-requires-gpu-taint",
    "eks-gpu-node-group-requires-nvidia-ami",
    "gpu-mig-profiles-valid",
    "gpu-sharing-replicas-within-bounds",
    "gpu-helm-release-version-pinned",
    "gpu-helm-release-not-in-default-namespace",
    "gpu-helm-release-timeout",
    "gpu-helm-release-nfd-values-key",
    "gpu-helm-release-tolerations-use-exists",
    "gpu-workload-gpu-limits-whole",
    "gpu-workload-tolerates-gpu-taint",
    "gpu-workload-mig-resource-exists",
    "gpu-workload-scheduler-exists",
    "rdma-pods-land-on-infiniband-pools",
    "gpu-stack-single-driver-owner",
    "gpu-stack-tolerates-pool-taints",
    "gpu-mig-manager-only-with-mig-pools",
    "gpu-nodepool-requires-gpu-limit",
    "gpu-workload-matches-pool-advertiser",
    "gpu-cluster-keeps-off-device-plugin-pools",
    "gpu-nodepool-limit-counts-reported-gpus",
    "gpu-nodepool-not-dra",
    "gpu-dra-node-group-keeps-a-node",
    "gpu-compute-class-selected",
    "gpu-health-agent-tolerates-gpu-taint",
    "gpu-stack-single-dcgm-owner",
    "gpu-pool-one-device-plugin",
    "gpu-sharing-config-map-within-bounds",
    "gpu-nfd-deployed-once",
    "gpu-pool-capacity-block-wired",
    "gpu-reserved-nodepool-selects-reservations",
    "gpu-node-pool-capacity-rules",
}
ADVISORY = {
    "gpu-node-pool-requires-gpu-labels",
    "gpu-helm-release-nfd-worker-restricted",
    "non-gpu-workload-avoids-gpu-taint",
    "gpu-pool-served-by-gpu-stack",
    "gpu-replicas-spread-or-pack",
    "gpu-node-pool-count-owned-by-autoscaler",
    "gpu-node-pool-never-deleted-first",
    "gpu-nodepool-consolidation-spares-running-pods",
    "gpu-workload-requests-what-karpenter-makes",
    "gpu-pool-has-cloud-health-checks",
    "gpudirect-pool-has-its-networks",
    "gpu-helm-chart-readable",
    "gpu-nfd-chart-restricted",
    "gpu-reservation-terms-cluster-wide",
    "gpu-fabric-pools",
}
TUNABLES: dict[str, tuple[str, ...]] = {
    "gpu-node-pool-requires-gpu-taint": ("gpuTaint",),
    "gpu-node-pool-requires-gpu-labels": ("skypilotLabels", "requiredLabelKeys"),
    "gpu-sharing-replicas-within-bounds": ("maxReplicas",),
    "gpu-sharing-config-map-within-bounds": ("maxReplicas",),
    "gpu-helm-release-version-pinned": ("allowedVersions",),
    "gpu-helm-release-timeout": ("minTimeoutSeconds",),
    "gpu-helm-release-tolerations-use-exists": ("gpuTaint",),
    "gpu-workload-tolerates-gpu-taint": ("gpuTaint",),
    "non-gpu-workload-avoids-gpu-taint": ("gpuTaint",),
    "gpu-workload-scheduler-exists": ("externalSchedulers",),
    "gpu-health-agent-tolerates-gpu-taint": ("gpuTaint",),
    "gpu-stack-single-dcgm-owner": ("gpuTaint",),
}
"""Each policy's config properties; ``gpuTaint`` and ``skypilotLabels`` are the team conventions
(``gpuready.core.conventions``), the same schema wherever they appear."""


def test_pack_name_is_valid_and_policy_names_are_unique_kebab_case() -> None:
    assert re.fullmatch(r"[a-zA-Z0-9-_.]{1,100}", PACK_NAME)
    names = [p.name for p in POLICIES]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", n) for n in names)


def test_enforcement_levels() -> None:
    levels = {p.name: p.enforcement_level for p in POLICIES}
    assert {n for n, level in levels.items() if level == EnforcementLevel.MANDATORY} == MANDATORY
    assert {n for n, level in levels.items() if level == EnforcementLevel.ADVISORY} == ADVISORY


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_every_policy_has_metadata_and_a_scope(policy: Any) -> None:
    assert policy.description.endswith(".")
    assert policy.remediation_steps and policy.severity is not None and policy.url.startswith("https://")
    assert isinstance(policy, ScopedResourcePolicy | ScopedStackPolicy)
    assert policy.resource_types


@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_config_schema_where_there_is_a_tunable(policy: Any) -> None:
    if policy.name not in TUNABLES:
        assert policy.config_schema is None
        return
    schema = policy.config_schema.properties
    assert tuple(schema) == TUNABLES[policy.name]
    assert all("default" in schema[key] for key in schema)
    if "gpuTaint" in schema:
        assert schema["gpuTaint"] == GPU_TAINT_SCHEMA
    json.dumps(schema)  # the engine receives it as a protobuf Struct


def test_the_entry_point_only_builds_the_pack() -> None:
    source = (PACK_DIR / "__main__.py").read_text()
    assert source.count("PolicyPack(") == 1
    assert "def " not in source and "class " not in source
    assert (PACK_DIR / "PulumiPolicy.yaml").read_text().count("runtime:") == 1


class _Spy(ResourceValidationPolicy):
    def __init__(self) -> None:
        self.seen: list[Mapping[str, Any]] = []
        super().__init__("spy", "Records props.", self._record, EnforcementLevel.ADVISORY)

    def _record(self, args: ResourceValidationArgs, report: ReportViolation) -> None:
        self.seen.append(args.props)


def test_props_reach_policies_as_read_only_proxies_with_floats() -> None:
    spy = _Spy()
    analyze_run(run_of(resource(EKS, "gpu", eks())), [spy], pack_name="spy")
    (props,) = spy.seen
    assert isinstance(props, Mapping) and not isinstance(props, dict)
    assert isinstance(props["taints"], Sequence) and not isinstance(props["taints"], list)
    assert props["scalingConfig"]["maxSize"] == 2.0 and isinstance(props["scalingConfig"]["maxSize"], float)
    with pytest.raises(TypeError):
        json.dumps(props)


def test_rules_also_run_on_plain_dicts_outside_the_engine() -> None:
    """pulumi-policy's own test pattern: validate() with hand-built args; schema defaults still apply."""
    policy = next(p for p in POLICIES if p.name == "gpu-node-pool-requires-gpu-labels")
    assert isinstance(policy, ResourceValidationPolicy)
    found: list[str] = []
    options = PolicyResourceOptions(False, [], None, [], PolicyCustomTimeouts(0, 0, 0), [], None)
    args = ResourceValidationArgs(EKS, eks(labels={}), "urn:x", "gpu", options, None, None)

    def report(message: str, urn: str | None = None) -> None:
        found.append(message)

    policy.validate(args, report)
    assert len(found) == 1 and "nvidia.com/gpu.present" in found[0]
