"""The REAL stack program with queued capacity (issue #28): a queued and a flex-start GKE pool get their Kueue objects
on the stack's one Kubernetes provider; ``gpuready:kueue`` chooses which pools get a ResourceFlavor."""

from __future__ import annotations

import json

from gpuready.cli.program_log import collected
from gpuready.offline.capture import CapturedRun, RegisteredResource
from tests.stacks.program_runs import config_bag, run_stack

PROVIDER = "pulumi:providers:kubernetes"
KUEUE = "kubernetes:kueue.x-k8s.io/v1beta2:"
POOLS = [
    {"name": "h100-queued", "instanceType": "a3-highgpu-8g", "minSize": 0, "maxSize": 4, "capacity": "queued",
     "repair": False},
    {"name": "h100-flex", "instanceType": "a3-highgpu-8g", "minSize": 0, "maxSize": 2, "capacity": "flex-start",
     "repair": False, "maxRunDuration": 86400},
    {"name": "l4", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 2},
]  # fmt: skip


def _kueue(run: CapturedRun) -> dict[str, RegisteredResource]:
    return {r.name: r for r in run.resources if r.type.startswith(KUEUE)}


def test_queued_pools_get_their_kueue_objects_on_the_one_provider() -> None:
    run = run_stack("gke-dev", config_bag("gke-dev", [f"gpuready:nodePools={json.dumps(POOLS)}"]))
    (provider,) = [r for r in run.resources if r.type == PROVIDER]
    objects = _kueue(run)
    assert sorted(objects) == [
        "kueue-admissioncheck-h100-queued",
        "kueue-provisioningrequestconfig-h100-queued",
        "kueue-resourceflavor-h100-flex",
        "kueue-resourceflavor-h100-queued",
    ]
    assert all(r.provider is not None and r.provider.startswith(provider.urn) for r in objects.values())
    (queued,) = [r for r in run.resources if r.name == "h100-queued-node-pool"]
    assert queued.inputs["queuedProvisioning"] == {"enabled": True}
    assert run.outputs["kueue"] == {"flavors": ["h100-queued", "h100-flex"], "admissionChecks": ["h100-queued"]}


def test_flavors_all_gives_every_pool_a_flavor_and_none_gives_none() -> None:
    pools = f"gpuready:nodePools={json.dumps(POOLS)}"
    every = run_stack("gke-dev", config_bag("gke-dev", [pools, 'gpuready:kueue={"flavors": "all"}']))
    assert "kueue-resourceflavor-l4" in _kueue(every)
    nothing = run_stack("gke-dev", config_bag("gke-dev", [pools, 'gpuready:kueue={"flavors": "none"}']))
    assert _kueue(nothing) == {} and "kueue" not in nothing.outputs
    # the Kueue entry's builder makes nothing, so the stack makes no Kubernetes provider (no cluster look-up)
    assert [r.name for r in every.resources if r.type == PROVIDER] == ["cluster"]
    assert [r.name for r in nothing.resources if r.type == PROVIDER] == []


def test_the_cluster_queue_and_local_queues_come_after_the_flavors_and_the_stack_exports_them() -> None:
    quota = {p["name"]: {"cpu": 8, "memory": "64Gi"} for p in POOLS[:2]}
    queue = {"clusterQueue": {"name": "training", "quota": quota},
             "localQueues": [{"namespace": "team-a", "name": "training"}]}  # fmt: skip
    config = [f"gpuready:nodePools={json.dumps(POOLS)}", f"gpuready:kueue={json.dumps(queue)}"]
    run = run_stack("gke-dev", config_bag("gke-dev", config))
    by_name = _kueue(run)
    cluster_queue = by_name["kueue-clusterqueue-training"]
    assert by_name["kueue-resourceflavor-h100-flex"].urn in cluster_queue.dependencies  # the last flavor
    assert cluster_queue.urn in by_name["kueue-localqueue-team-a-training"].dependencies
    assert cluster_queue.inputs["spec"]["admissionChecksStrategy"]["admissionChecks"] == [
        {"name": "h100-queued", "onFlavors": ["h100-queued"]}
    ]
    assert run.outputs["kueue"]["clusterQueue"] == "training"
    assert run.outputs["kueue"]["localQueues"] == ["team-a/training"]


def test_a_queued_pool_without_flavors_is_warned_of_in_the_program_log() -> None:
    pools = f"gpuready:nodePools={json.dumps(POOLS)}"
    with collected() as log:
        run_stack("gke-dev", config_bag("gke-dev", [pools, 'gpuready:kueue={"flavors": "none"}']))
    warned = sorted(m for m in log.warnings if "gpuready:kueue flavors: none" in m)
    assert [m.split(":")[0] for m in warned] == ["pool h100-flex", "pool h100-queued"]
