"""The bin-packing ``KubeSchedulerConfiguration``: valid ``kubescheduler.config.k8s.io/v1``, and GPU-dominated.

kubernetes-validate ships no schema for the scheduler's configuration, so ``check_v1`` below checks its
structure against the reference "kube-scheduler Configuration (v1)" (kubernetes/website
``content/en/docs/reference/config-api/kube-scheduler-config.v1.md``): the fields of
``KubeSchedulerConfiguration`` (``DebuggingConfiguration`` embedded), ``LeaderElectionConfiguration``,
``KubeSchedulerProfile``, ``PluginConfig``, ``NodeResourcesFitArgs``, ``ScoringStrategy`` ("Allowed weights go
from 1 to 100") and ``ResourceSpec``. The ``ScoringStrategyType`` values are those of
``k8s.io/kube-scheduler/config/v1`` ``types_pluginargs.go`` (LeastAllocated, MostAllocated, RequestedToCapacityRatio).
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpuready.core.binpack.scheduler_config import (
    SCORING_STRATEGY_TYPES,
    BinPackSchedulerSpec,
    configuration_yaml,
    gpu_resources_of,
    gpu_taint_keys_of,
    scheduler_configuration,
)
from gpuready.core.config_model.parsers import parse_binpack
from gpuready.core.conventions import Conventions
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import ConfigError

CONFIGURATION_FIELDS = {
    "apiVersion", "kind", "parallelism", "leaderElection", "clientConnection", "enableProfiling",
    "enableContentionProfiling", "percentageOfNodesToScore", "podInitialBackoffSeconds", "podMaxBackoffSeconds",
    "profiles", "extenders", "delayCacheUntilActive",
}  # fmt: skip
LEADER_ELECTION_FIELDS = {
    "leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock", "resourceName", "resourceNamespace"
}  # fmt: skip
PROFILE_FIELDS = {"schedulerName", "percentageOfNodesToScore", "plugins", "pluginConfig"}
FIT_ARGS_FIELDS = {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"}
STRATEGY_FIELDS = {"type", "resources", "requestedToCapacityRatio"}


def check_v1(config: dict[str, Any]) -> list[str]:
    """Every way ``config`` departs from the v1 reference; empty when it conforms."""
    errors: list[str] = []
    if config.get("apiVersion") != "kubescheduler.config.k8s.io/v1":
        errors.append(f"apiVersion {config.get('apiVersion')!r}")
    if config.get("kind") != "KubeSchedulerConfiguration":
        errors.append(f"kind {config.get('kind')!r}")
    errors += [f"unknown field {key}" for key in sorted(set(config) - CONFIGURATION_FIELDS)]
    election = config.get("leaderElection", {})
    errors += [f"leaderElection: unknown field {key}" for key in sorted(set(election) - LEADER_ELECTION_FIELDS)]
    if "leaderElect" in election and not isinstance(election["leaderElect"], bool):
        errors.append("leaderElection.leaderElect is not a bool")
    errors += [
        f"leaderElection.{key} is not a string"
        for key in ("resourceLock", "resourceName", "resourceNamespace")
        if key in election and not isinstance(election[key], str)
    ]
    profiles = config.get("profiles", [])
    names = [p.get("schedulerName") for p in profiles]
    if len(names) != len(set(names)):
        errors.append("profiles: duplicate schedulerName")
    for index, profile in enumerate(profiles):
        errors += [f"profiles[{index}]: {e}" for e in _check_profile(profile)]
    return errors


def _check_profile(profile: dict[str, Any]) -> list[str]:
    errors = [f"unknown field {key}" for key in sorted(set(profile) - PROFILE_FIELDS)]
    if not isinstance(profile.get("schedulerName"), str) or not profile["schedulerName"]:
        errors.append("schedulerName missing")
    plugin_names = [p.get("name") for p in profile.get("pluginConfig", [])]
    if len(plugin_names) != len(set(plugin_names)):
        errors.append("pluginConfig: duplicate name")
    for plugin in profile.get("pluginConfig", []):
        errors += [f"pluginConfig: unknown field {key}" for key in sorted(set(plugin) - {"name", "args"})]
        if plugin.get("name") == "NodeResourcesFit":
            errors += [f"NodeResourcesFit: {e}" for e in _check_fit_args(plugin.get("args", {}))]
    return errors


def _check_fit_args(args: dict[str, Any]) -> list[str]:
    errors = [f"unknown field {key}" for key in sorted(set(args) - FIT_ARGS_FIELDS)]
    strategy = args.get("scoringStrategy", {})
    errors += [f"scoringStrategy: unknown field {key}" for key in sorted(set(strategy) - STRATEGY_FIELDS)]
    if strategy.get("type") not in SCORING_STRATEGY_TYPES:
        errors.append(f"scoringStrategy.type {strategy.get('type')!r}")
    resources = strategy.get("resources", [])
    for resource in resources:
        if set(resource) - {"name", "weight"} or not isinstance(resource.get("name"), str):
            errors.append(f"resources: bad entry {resource!r}")
        weight = resource.get("weight")
        if not isinstance(weight, int) or isinstance(weight, bool) or not 1 <= weight <= 100:
            errors.append(f"resources: weight {weight!r} of {resource.get('name')} not in 1..100")
    if len({r.get("name") for r in resources}) != len(resources):
        errors.append("resources: duplicate name")
    return errors


SPECS = [
    BinPackSchedulerSpec(kube_scheduler_version="v1.33.4"),
    BinPackSchedulerSpec(
        cluster_version="1.34.1-eks-abc",
        name="packer",
        namespace="ml-scheduling",
        scheduler_name="ml-pack",
        gpu_resources=("nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb", "nvidia.com/mig-3g.40gb"),
    ),
]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_configuration_conforms_to_v1(spec: BinPackSchedulerSpec) -> None:
    assert check_v1(scheduler_configuration(spec)) == []


@pytest.mark.parametrize(
    ("broken", "error"),
    [
        pytest.param({"apiVersion": "kubescheduler.config.k8s.io/v1beta3"}, "apiVersion", id="api-version"),
        pytest.param({"healthzBindAddress": "0.0.0.0:10251"}, "unknown field healthzBindAddress", id="removed-field"),
        pytest.param({"leaderElection": {"leaderElect": "yes"}}, "not a bool", id="leader-elect-string"),
    ],
)
def test_the_structural_check_catches_departures(broken: dict[str, Any], error: str) -> None:
    config = {**scheduler_configuration(SPECS[0]), **broken}
    assert any(error in e for e in check_v1(config))


@pytest.mark.parametrize(
    ("strategy", "error"),
    [
        pytest.param({"type": "MostRequested", "resources": []}, "scoringStrategy.type", id="type"),
        pytest.param({"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 101}]}, "not in 1..100", id="w"),
        pytest.param({"type": "MostAllocated", "resources": [{"name": "cpu", "weight": 0}]}, "not in 1..100", id="w0"),
        pytest.param({"type": "MostAllocated", "shape": []}, "unknown field shape", id="field"),
    ],
)
def test_the_structural_check_catches_bad_scoring(strategy: dict[str, Any], error: str) -> None:
    config = scheduler_configuration(SPECS[0])
    config["profiles"][0]["pluginConfig"][0]["args"]["scoringStrategy"] = strategy
    assert any(error in e for e in check_v1(config))


def test_configuration_values() -> None:
    spec = SPECS[1]
    config = scheduler_configuration(spec)
    assert config["leaderElection"] == {
        "leaderElect": True,
        "resourceLock": "leases",
        "resourceName": "packer",
        "resourceNamespace": "ml-scheduling",
    }
    (profile,) = config["profiles"]
    assert profile["schedulerName"] == "ml-pack"
    assert "plugins" not in profile, "every default plugin stays enabled"
    (fit,) = profile["pluginConfig"]
    assert fit["name"] == "NodeResourcesFit"
    assert fit["args"]["scoringStrategy"] == {
        "type": "MostAllocated",
        "resources": [
            {"name": "nvidia.com/gpu", "weight": 100},
            {"name": "nvidia.com/gpu.shared", "weight": 100},
            {"name": "nvidia.com/mig-1g.10gb", "weight": 100},
            {"name": "nvidia.com/mig-3g.40gb", "weight": 100},
            {"name": "cpu", "weight": 1},
            {"name": "memory", "weight": 1},
        ],
    }


def test_yaml_is_the_configuration() -> None:
    spec = SPECS[1]
    assert yaml.safe_load(configuration_yaml(spec)) == scheduler_configuration(spec)


def test_gpu_resources_of_the_pools() -> None:
    pools = [
        GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.12xlarge", min_size=0, max_size=2),
        GpuPoolSpec(cloud="eks", name="l4-shared", instance_type="g6.12xlarge", min_size=0, max_size=2,
                    sharing=GpuSharing(mode="time-slicing", replicas=4, rename_by_default=True)),
        GpuPoolSpec(cloud="aks", name="a100mig", instance_type="Standard_NC24ads_A100_v4", min_size=0, max_size=2,
                    sharing=MigPartitioning(profile="1g.10gb", strategy="mixed")),
        GpuPoolSpec(cloud="eks", name="l4-shared2", instance_type="g6.xlarge", min_size=0, max_size=2,
                    sharing=GpuSharing(mode="mps", replicas=2, rename_by_default=True)),
    ]  # fmt: skip
    extra = gpu_resources_of(pools)
    assert extra == ("nvidia.com/gpu.shared", "nvidia.com/mig-1g.10gb")
    assert BinPackSchedulerSpec(kube_scheduler_version="v1.33.4", gpu_resources=extra).scored_gpu_resources == (
        "nvidia.com/gpu",
        *extra,
    )


def test_a_teams_gpu_taint_is_refused_in_the_schedulers_tolerations_too() -> None:
    team = Conventions(gpu_taint=Taint("sku", "gpu", "NoSchedule"))
    pools = [GpuPoolSpec(cloud="aks", name="t4", instance_type="Standard_NC4as_T4_v3", min_size=0, max_size=2,
                         conventions=team)]  # fmt: skip
    assert gpu_taint_keys_of(pools) == ("sku",)
    assert gpu_taint_keys_of([GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.xlarge", min_size=0,
                                          max_size=1)]) == ()  # fmt: skip
    raw = {"kubeSchedulerVersion": "v1.33.4", "tolerations": [{"key": "sku", "operator": "Exists"}]}
    with pytest.raises(ConfigError) as raised:
        parse_binpack(raw, pools)
    assert [(p.path, "tolerates the sku taint" in p.problem) for p in raised.value.problems] == [
        ("binpackScheduler.tolerations[0].key", True)
    ]
    assert parse_binpack(raw, ()).tolerations[0].key == "sku"  # no pool of that convention: an ordinary taint
