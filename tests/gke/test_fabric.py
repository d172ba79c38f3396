"""GKE GPUDirect pools: the machine facts, the rules of a fabric pool and the node pool inputs it adds.

The installers Google publishes (``../shared/reference/upstream/gke-gpudirect/``) select the GPU nodes of each kind
by accelerator: the machine table must name exactly the machines whose accelerators they select. The inputs reach
the registered NodePool through the real pulumi_gcp SDK under the mock runtime, and every path is in the recorded
input tree (``components/gpuready/gke/inputs.json``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from gpuready.core import resource_inputs
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.fabric.model import FabricKind, FabricNetwork, FabricSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError, SpecError
from gpuready.gke import fabric_objects, lifecycle
from gpuready.gke.catalog import ACCELERATORS, GKE_MACHINE_TYPES
from gpuready.gke.fabric import FABRIC_INPUTS, GPUDIRECT, node_pool_inputs
from tests.gke.test_node_pool import NODE_POOL, build
from tests.pulumi_mocks import CapturingMonitor
from tests.upstream import upstream_text

INSTALLERS = {
    "gpudirect-tcpx": "gke-gpudirect/nccl-tcpx-installer.yaml",
    "gpudirect-tcpxo": "gke-gpudirect/nccl-tcpxo-installer.yaml",
    "gpudirect-rdma": "gke-gpudirect/nccl-rdma-installer.yaml",
    "gpudirect-rdma-a4x": "gke-gpudirect/nccl-rdma-installer-a4x.yaml",
}
"""Installer key (``GpuDirect.installer_key``) -> Google's installer in the shared snapshot."""
UNLISTED = {"a4x-highgpu-4g": ExplicitGpu(model="gb200", count=4)}
"""GPUDirect machines the GKE catalog does not list (A4X, clouds.md 4.1): their pools describe their GPUs with
``gpu:`` (four GB200 per A4X VM: Google's ``gpudirect-rdma/nccl-test-imex-a4x.yaml`` requests ``nvidia.com/gpu: 4``)."""


def networks(count: int, prefix: str = "gpu") -> tuple[FabricNetwork, ...]:
    return tuple(FabricNetwork(network=f"{prefix}-net-{i}", subnetwork=f"{prefix}-sub-{i}") for i in range(count))


def spec(
    machine: str = "a3-megagpu-8g", kind: FabricKind = "gpudirect-tcpxo", count: int = 8, **extra: Any
) -> GpuPoolSpec:
    workload_policy = GPUDIRECT[machine].workload_policy if machine in GPUDIRECT else False
    placement = "a4x-workload-policy" if workload_policy else None
    fabric = extra.pop("fabric", FabricSpec(kind=kind, networks=networks(count), placement_group=placement))
    if machine in UNLISTED:
        extra.setdefault("gpu", UNLISTED[machine])
    return GpuPoolSpec(cloud="gke", name="train", instance_type=machine, min_size=0, max_size=2, fabric=fabric, **extra)


def with_last(network: FabricNetwork) -> FabricSpec:
    """A TCPXO fabric whose eighth network is ``network``."""
    return FabricSpec(kind="gpudirect-tcpxo", networks=(*networks(7), network))


@pytest.mark.parametrize("machine", sorted(GPUDIRECT))
def test_every_gpudirect_machine_is_in_the_catalog(machine: str) -> None:
    assert (machine in GKE_MACHINE_TYPES) is (machine not in UNLISTED)
    assert cloud_profile("gke").fabric.types[machine].kind == GPUDIRECT[machine].kind


@pytest.mark.parametrize("key", sorted(INSTALLERS))
def test_the_machines_of_an_installer_are_the_ones_it_selects(key: str) -> None:
    installer = yaml.safe_load(upstream_text(INSTALLERS[key]))
    terms = installer["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]
    (term,) = terms
    selected = {e["key"]: set(e["values"]) for e in term["matchExpressions"] if e["operator"] == "In"}
    assert set(selected) <= {"cloud.google.com/gke-accelerator", "kubernetes.io/arch"}
    gpus = [spec(m, f.kind, f.networks).resolved.gpu for m, f in GPUDIRECT.items() if f.installer_key == key]
    assert {ACCELERATORS[g.model.key] for g in gpus} == selected["cloud.google.com/gke-accelerator"]
    if "kubernetes.io/arch" in selected:  # A4X's installer: the arm64 plugin build
        assert {g.arch for g in gpus} == selected["kubernetes.io/arch"]


def test_a4x_installer_recorded_is_the_one_that_selects_arm64_gb200() -> None:
    """The recorded A4X installer (taken with ``git show`` at the cited commit, the snapshot lacking it) selects
    what the A4X machine is, and installs the arm64 build of Google's gIB plugin."""
    manifest = fabric_objects.installers()["gpudirect-rdma-a4x"]["manifest"]
    (term,) = manifest["spec"]["template"]["spec"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"
    ]["nodeSelectorTerms"]
    selected = {e["key"]: e["values"] for e in term["matchExpressions"]}
    gpu = spec("a4x-highgpu-4g", "gpudirect-rdma", 5).resolved.gpu
    assert selected == {
        "cloud.google.com/gke-accelerator": [ACCELERATORS[gpu.model.key]],
        "kubernetes.io/arch": [gpu.arch],
    }
    (init,) = manifest["spec"]["template"]["spec"]["initContainers"]
    assert init["image"].startswith("us-docker.pkg.dev/gce-ai-infra/gpudirect-gib/nccl-plugin-gib-arm64:")


@pytest.mark.parametrize(
    ("machine", "kind", "count"),
    [(machine, facts.kind, facts.networks) for machine, facts in sorted(GPUDIRECT.items())],
)
def test_each_gpudirect_machine_takes_its_own_network_count(machine: str, kind: FabricKind, count: int) -> None:
    assert spec(machine, kind, count).fabric is not None
    for wrong in (count - 1, count + 1):
        with pytest.raises(SpecError, match=rf"fabric\.networks: {machine} needs exactly {count} additional"):
            spec(machine, kind, wrong)


@pytest.mark.parametrize(
    ("extra", "path", "message"),
    [
        ({"zones": ("us-central1-a", "us-central1-b")}, "zones", "keeps a GPUDirect pool's nodes in one zone"),
        (
            {"overrides": {"queuedProvisioning": {"enabled": True}}},
            "overrides.queuedProvisioning",
            "does not take a compact placement policy",
        ),
        ({"overrides": {"placementPolicy": {"type": "COMPACT"}}}, "overrides.placementPolicy", "owned by fabric"),
        ({"overrides": {"nodeConfig": {"gvnic": {"enabled": False}}}}, "overrides.nodeConfig.gvnic", "owned by"),
        ({"provisioner": "compute-class"}, "fabric", "needs a node pool of gpuready's"),
        (
            {
                "fabric": FabricSpec(
                    kind="gpudirect-tcpxo", networks=(*networks(7), FabricNetwork(network="x", subnetwork="gpu-sub-0"))
                )
            },
            "fabric.networks[7].subnetwork",
            "each NIC needs its own subnetwork",
        ),
        (
            {
                "fabric": FabricSpec(
                    kind="gpudirect-tcpxo", networks=(*networks(7), FabricNetwork(network="Bad_Net", subnetwork="s"))
                )
            },
            "fabric.networks[7].network",
            "is not a GCE resource name",
        ),
    ],
)
def test_a_gpudirect_pool_refuses_what_breaks_its_fabric(extra: dict[str, Any], path: str, message: str) -> None:
    with pytest.raises(SpecError) as error:
        spec(**extra)
    assert any(p.path == path and message in p.problem for p in error.value.problems), str(error.value)


def test_placement_policy_stays_an_override_on_other_pools() -> None:
    plain = GpuPoolSpec(
        cloud="gke", name="l4", instance_type="g2-standard-8", min_size=0, max_size=2,
        overrides={"placementPolicy": {"type": "COMPACT"}},
    )  # fmt: skip
    assert plain.overrides["placementPolicy"] == {"type": "COMPACT"}


def test_fabric_inputs_are_in_the_recorded_input_tree() -> None:
    tree = resource_inputs.load(cloud_profile("gke").inputs_package)
    for path in (*FABRIC_INPUTS, "networkConfig.additionalNodeNetworkConfigs.subnetwork", "placementPolicy.policyName"):
        inputs = tree.inputs
        *parents, last = path.split(".")
        for part in parents:
            nested = inputs[part].inputs
            assert nested is not None, path
            inputs = nested
        assert last in inputs, path


def test_the_tcpxo_pool_registers_its_networks_gvnic_and_compact_placement(mocked: CapturingMonitor) -> None:
    fabric = FabricSpec(kind="gpudirect-tcpxo", placement_group="a3-mega-policy", networks=networks(8))
    build(spec(fabric=fabric, zones=("us-central1-c",)))
    inputs = mocked.one(NODE_POOL).inputs
    assert inputs["nodeConfig"]["gvnic"] == {"enabled": True}
    assert inputs["networkConfig"]["additionalNodeNetworkConfigs"] == [
        {"network": f"gpu-net-{i}", "subnetwork": f"gpu-sub-{i}"} for i in range(8)
    ]
    assert inputs["placementPolicy"] == {"type": "COMPACT", "policyName": "a3-mega-policy"}


@pytest.mark.parametrize("field", ["placementPolicy", "networkConfig.additionalNodeNetworkConfigs"])
def test_a_change_of_the_fabric_inputs_replaces_the_pool(field: str) -> None:
    rule = next(r for r in lifecycle.NODE_POOL.rules if r.field == field)
    assert rule.action == "replace"
    before = lifecycle.cloud_name(spec(), {"placementPolicy": {"type": "COMPACT"}, "networkConfig": {"a": 1}})
    after = lifecycle.cloud_name(
        spec(), {"placementPolicy": {"type": "COMPACT", "policyName": "p"}, "networkConfig": {"a": 1}}
    )
    assert before != after


def _stack(node_locations: list[str], zones: list[str] | None = None) -> dict[str, object]:
    nets = [{"network": f"n{i}", "subnetwork": f"s{i}"} for i in range(8)]
    pool: dict[str, object] = {"name": "mega", "instanceType": "a3-megagpu-8g", "minSize": 0, "maxSize": 2,
                               "fabric": {"kind": "gpudirect-tcpxo", "networks": nets}}  # fmt: skip
    if zones is not None:
        pool["zones"] = zones
    return {
        "cloud": "gke", "clusterName": "ml", "gkeLocation": "us-central1",
        "gkeNodeLocations": json.dumps(node_locations), "nodePools": json.dumps([pool]),
    }  # fmt: skip


@pytest.mark.parametrize(
    ("node_locations", "zones", "refused"),
    [
        (["us-central1-a", "us-central1-b"], None, True),
        (["us-central1-a", "us-central1-b"], ["us-central1-b"], False),
        (["us-central1-a"], None, False),
    ],
)
def test_a_gpudirect_pool_on_the_stacks_zones_takes_one(
    node_locations: list[str], zones: list[str] | None, refused: bool
) -> None:
    if not refused:
        assert parse_stack_settings(_stack(node_locations, zones)).pools[0].fabric is not None
        return
    with pytest.raises(ConfigError) as error:
        parse_stack_settings(_stack(node_locations, zones))
    assert any(
        p.path.endswith("nodePools[0].zones") and "compact placement" in p.problem for p in error.value.problems
    ), str(error.value)


def test_an_a4x_pool_names_its_workload_policy_and_gets_it_as_its_placement_policy() -> None:
    with pytest.raises(SpecError, match=r"fabric\.placementGroup: a4x-highgpu-4g node pools need a Compute Engine"):
        spec("a4x-highgpu-4g", "gpudirect-rdma", 5, fabric=FabricSpec(kind="gpudirect-rdma", networks=networks(5)))
    pool = spec("a4x-highgpu-4g", "gpudirect-rdma", 5)
    assert node_pool_inputs(pool)["placement_policy"] == {"type": "COMPACT", "policy_name": "a4x-workload-policy"}


def test_placement_group_create_is_the_pools_own_compact_policy_not_a_policy_named_create() -> None:
    own = spec(fabric=FabricSpec(kind="gpudirect-tcpxo", networks=networks(8), placement_group="create"))
    assert node_pool_inputs(own)["placement_policy"] == {"type": "COMPACT"}
