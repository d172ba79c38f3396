"""The REAL stack program with queued capacity (issue #28): a queued and a flex-start GKE pool get their Kueue objects
on the stack's one Kubernetes provider; ``gpuready:kueue`` chooses which pools get a ResourceFlavor."""

from __future__ import annotations

import json

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
