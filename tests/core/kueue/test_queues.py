"""The ClusterQueue and LocalQueues over a stack's flavored pools (issue #28): every object passes Kueue v0.19.2's
CRDs strictly with their CEL rules, the quotas are the pools' own, and every refusal names the field, the value, what
is allowed and a hint (table-driven)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.config_model.parsers import parse_kueue
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.kueue.objects import kueue_objects, unqueued_warnings
from gpuready.core.kueue.queues import QUEUE_LABEL, queue_warnings
from gpuready.core.pool_parts import MigPartitioning
from gpuready.core.specs import GpuPoolSpec, GpuSharing
from gpuready.errors import ConfigError
from tests.core.conftest import build_spec
from tests.crd_schemas import crd_problems

CRDS = {
    "ClusterQueue": "kueue/kueue.x-k8s.io_clusterqueues.v0.19.2.yaml",
    "LocalQueue": "kueue/kueue.x-k8s.io_localqueues.v0.19.2.yaml",
    "ResourceFlavor": "kueue/kueue.x-k8s.io_resourceflavors.v0.19.2.yaml",
    "ProvisioningRequestConfig": "kueue/kueue.x-k8s.io_provisioningrequestconfigs.v0.19.2.yaml",
    "AdmissionCheck": "kueue/kueue.x-k8s.io_admissionchecks.v0.19.2.yaml",
}
OFF = RepairPolicy(enabled=False)
NODE_QUOTA = {"cpu": 100, "memory": "1Ti"}


def pools() -> tuple[GpuPoolSpec, ...]:
    return (
        build_spec("gke", name="train", instance_type="a3-highgpu-8g", capacity="queued", repair=OFF, max_size=4),
        build_spec("gke", name="burst", instance_type="a3-highgpu-8g", capacity="flex-start", repair=OFF,
                   sharing=GpuSharing(mode="time-slicing", replicas=2)),
        build_spec("eks", name="mig", instance_type="p5.48xlarge", max_size=1,
                   sharing=MigPartitioning(profile="1g.10gb", strategy="mixed")),
    )  # fmt: skip


QUEUE: dict[str, Any] = {
    "flavors": "all",
    "clusterQueue": {"name": "training", "cohort": "ml", "namespaceSelector": {"matchLabels": {"team": "ml"}},
                     "quota": {"train": NODE_QUOTA, "burst": NODE_QUOTA, "mig": NODE_QUOTA}},
    "localQueues": [{"namespace": "team-a", "name": "training"}, {"namespace": "team-b", "name": "training"}],
}  # fmt: skip


def test_the_cluster_queue_covers_every_flavor_with_the_pools_own_quota_and_the_queued_pool_s_check() -> None:
    objects = kueue_objects(pools(), parse_kueue(QUEUE, pools()))
    assert list(objects)[-3:] == ["clusterqueue-training", "localqueue-team-a-training", "localqueue-team-b-training"]
    spec = objects["clusterqueue-training"]["spec"]
    (group,) = spec["resourceGroups"]
    assert group["coveredResources"] == ["nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "cpu", "memory"]
    quotas = {f["name"]: {r["name"]: r["nominalQuota"] for r in f["resources"]} for f in group["flavors"]}
    assert list(quotas) == ["train", "burst", "mig"]  # stack order: Kueue tries flavors in this order
    assert quotas["train"] == {"nvidia.com/gpu": 32, "nvidia.com/mig-1g.10gb": 0, "cpu": 100, "memory": "1Ti"}
    assert quotas["burst"]["nvidia.com/gpu"] == 2 * 8 * 2  # maxSize 2 x 8 GPUs x 2 time-slicing replicas
    assert quotas["mig"] == {"nvidia.com/gpu": 0, "nvidia.com/mig-1g.10gb": 56, "cpu": 100, "memory": "1Ti"}
    assert spec["admissionChecksStrategy"] == {"admissionChecks": [{"name": "train", "onFlavors": ["train"]}]}
    assert spec["cohortName"] == "ml" and spec["namespaceSelector"] == {"matchLabels": {"team": "ml"}}
    local = objects["localqueue-team-a-training"]
    assert local["metadata"] == {"name": "training", "namespace": "team-a"}
    assert local["spec"] == {"clusterQueue": "training"}


@pytest.mark.parametrize("flavors", ["queued", "all"])
def test_every_object_passes_its_strict_crd_with_cel(flavors: str) -> None:
    chosen = {**QUEUE, "flavors": flavors, "clusterQueue": {**QUEUE["clusterQueue"], "quota": {}}}
    objects = kueue_objects(pools(), parse_kueue(chosen, pools()))
    assert {obj["kind"] for obj in objects.values()} == set(CRDS)
    for key, obj in objects.items():
        assert crd_problems(CRDS[obj["kind"]], obj) == [], key


def test_the_crd_check_catches_a_flavor_whose_resources_differ_from_the_group_s() -> None:
    queue = kueue_objects(pools(), parse_kueue(QUEUE, pools()))["clusterqueue-training"]
    queue["spec"]["resourceGroups"][0]["flavors"][0]["resources"].pop()
    assert any("same number of resources" in p for p in crd_problems(CRDS["ClusterQueue"], queue))


def test_a_queue_without_cpu_or_memory_is_warned_of_and_a_full_one_is_not() -> None:
    bare = parse_kueue({"clusterQueue": {"name": "q"}}, pools())
    (warning,) = queue_warnings(bare, pools()[:2])
    assert "no quota of cpu or memory" in warning and "excludeResourcePrefixes" in warning
    assert queue_warnings(parse_kueue(QUEUE, pools()), pools()) == []


@pytest.mark.parametrize(("capacity", "says"), [("queued", "only through a ProvisioningRequest"),
                                                ("flex-start", "pods outside Kueue still scale it")])  # fmt: skip
def test_a_queued_or_flex_start_pool_without_flavors_is_warned_of(capacity: str, says: str) -> None:
    pool = build_spec("gke", name="p", instance_type="a3-highgpu-8g", capacity=capacity, repair=OFF)
    (warning,) = unqueued_warnings((pool,), parse_kueue({"flavors": "none"}, (pool,)))
    assert warning.startswith(f"pool p: capacity {capacity}") and says in warning and "flavors: queued" in warning
    assert unqueued_warnings((pool,), parse_kueue({}, (pool,))) == []


REFUSED: list[tuple[str, dict[str, Any], str, str, str]] = [
    # (id, gpuready:kueue, problem path, words of the problem, words of the hint)
    ("local-queues-without-cluster-queue", {"localQueues": [{"namespace": "a", "name": "q"}]},
     "kueue.localQueues", "needs the ClusterQueue", "clusterQueue: {name:"),
    ("cluster-queue-over-no-pool", {"flavors": "none", "clusterQueue": {"name": "q"}},
     "kueue.clusterQueue", "covers no pool", "flavors: all"),
    ("cluster-queue-name", {"clusterQueue": {"name": "Training"}},
     "kueue.clusterQueue.name", "lowercase DNS subdomain", "e.g. training"),
    ("cohort-name", {"clusterQueue": {"name": "q", "cohort": "ML_team"}},
     "kueue.clusterQueue.cohort", "lowercase DNS subdomain", "e.g."),
    ("local-queue-namespace", {"clusterQueue": {"name": "q"}, "localQueues": [{"namespace": "a.b", "name": "q"}]},
     "kueue.localQueues[0].namespace", "DNS label", "e.g. team-a"),
    ("local-queue-name-too-long-for-the-label", {"clusterQueue": {"name": "q"},
                                                 "localQueues": [{"namespace": "a", "name": "q" * 64}]},
     "kueue.localQueues[0].name", QUEUE_LABEL, "e.g. training"),
    ("local-queue-repeated", {"clusterQueue": {"name": "q"}, "localQueues": [{"namespace": "a", "name": "q"}] * 2},
     "kueue.localQueues[1]", "repeats a LocalQueue", "once"),
    ("quota-of-no-flavor", {"clusterQueue": {"name": "q", "quota": {"serve": {"cpu": 1}}}},
     "kueue.clusterQueue.quota.serve", "names no flavor", "use the name of a pool with a ResourceFlavor"),
    ("quota-negative", {"clusterQueue": {"name": "q", "quota": {"train": {"nvidia.com/gpu": -1}}}},
     "kueue.clusterQueue.quota.train.nvidia.com/gpu", "non-negative Kubernetes quantity", "e.g. 96"),
    ("quota-not-a-quantity", {"clusterQueue": {"name": "q", "quota": {"train": {"memory": "lots"}}}},
     "kueue.clusterQueue.quota.train.memory", "non-negative Kubernetes quantity", "1024Gi"),
    ("quota-on-one-flavor-only", {"clusterQueue": {"name": "q", "quota": {"train": {"cpu": 96}}}},
     "kueue.clusterQueue.quota.burst", "gives no quota of cpu", "give quota.burst cpu too"),
    ("selector-in-without-values", {"clusterQueue": {"name": "q", "namespaceSelector": {
        "matchExpressions": [{"key": "team", "operator": "In"}]}}},
     "kueue.clusterQueue.namespaceSelector.matchExpressions[0].values", "needs values", "values: [a]"),
    ("selector-exists-with-values", {"clusterQueue": {"name": "q", "namespaceSelector": {
        "matchExpressions": [{"key": "team", "operator": "Exists", "values": ["a"]}]}}},
     "kueue.clusterQueue.namespaceSelector.matchExpressions[0].values", "takes no values", "no values"),
    ("selector-label-value", {"clusterQueue": {"name": "q", "namespaceSelector": {"matchLabels": {"team": "m l"}}}},
     "kueue.clusterQueue.namespaceSelector.matchLabels.team", "alphanumeric", "team: ml"),
    ("local-queue-in-a-namespace-the-selector-does-not-admit", {"clusterQueue": {"name": "q", "namespaceSelector": {
        "matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["team-a"]}]}},
        "localQueues": [{"namespace": "team-b", "name": "q"}]},
     "kueue.localQueues[0].namespace", "does not admit", "add the namespace to clusterQueue.namespaceSelector"),
    ("selector-operator", {"clusterQueue": {"name": "q", "namespaceSelector": {
        "matchExpressions": [{"key": "team", "operator": "in", "values": ["a"]}]}}},
     "kueue.clusterQueue.namespaceSelector.matchExpressions[0].operator", "unknown selector operator", "NotIn"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "path", "problem", "hint"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused_with_path_value_and_a_hint(raw: dict[str, Any], path: str, problem: str, hint: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_kueue(raw, pools()[:2])
    found = {p.path: p for p in raised.value.problems}
    assert path in found, list(found)
    assert problem in found[path].problem + " ".join(map(str, found[path].allowed))
    assert hint in found[path].hint


def test_a_dra_pool_in_the_queue_needs_its_quota() -> None:
    dra = build_spec("eks", name="dra", instance_type="p5.48xlarge", advertise="dra")
    with pytest.raises(ConfigError) as raised:
        parse_kueue({"flavors": "all", "clusterQueue": {"name": "q"}}, (dra,))
    (problem,) = raised.value.problems
    assert problem.path == "kueue.clusterQueue.quota.dra" and "deviceClassMappings" in problem.problem
    made = parse_kueue({"flavors": "all", "clusterQueue": {"name": "q", "quota": {"dra": {"example.com/gpu": 8}}}},
                       (dra,))  # fmt: skip
    assert made.cluster_queue is not None


@pytest.mark.parametrize(
    "selector",
    [{}, {"matchLabels": {"kubernetes.io/metadata.name": "team-a"}}, {"matchLabels": {"team": "ml"}},
     {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": ["team-b"]}]}],
    ids=["every-namespace", "by-name", "by-another-label-unknown-offline", "not-in-another"],
)  # fmt: skip
def test_a_local_queue_in_an_admitted_or_unknowable_namespace_passes(selector: dict[str, Any]) -> None:
    raw = {"clusterQueue": {"name": "q", "namespaceSelector": selector},
           "localQueues": [{"namespace": "team-a", "name": "q"}]}  # fmt: skip
    assert parse_kueue(raw, pools()[:2]).local_queues[0].namespace == "team-a"
