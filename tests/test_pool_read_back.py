"""Round trip per provisioner: reading back the resource a pool's component plans gives back the pool's facts.

Each provisioner owns the reader of the resource it writes (``Provisioner.readers``). Two sources of planned
resources: every example stack's and example program's offline plan (the golden ``plan-*.json``, which
``tests/golden`` keeps equal to a fresh ``gpuready plan -o json``), and a table of pools per provisioner planned
by their components under Pulumi mocks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pulumi_kubernetes as k8s
import pytest

from gpuready.core import scheduling
from gpuready.core.capacity.pool_facts import PoolFacts
from gpuready.core.capacity.readers import pool_readers, read_pools
from gpuready.core.capacity.registry import provisioner_for, provisioners
from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.pool_parts import MigPartitioning
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings
from gpuready.core.taints import Taint
from gpuready.policy.rules.pool_settings import image_problems, mig_problems
from gpuready.stack_adapters import build_pool
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, install_mocks, runtime_test
from tests.wiring import cloud_settings

PLANS = sorted(
    p for p in (Path(__file__).parent / "golden" / "data").glob("plan-*.json") if p.stem != "plan-wrong-program"
)
"""The offline plans of every example stack (``stacks/Pulumi.*.yaml``) and of the example program."""


def _planned(path: Path) -> list[tuple[Mapping[str, Any], PoolFacts]]:
    """Each planned pool of the plan (its ``pools`` entry) with the facts read back from its resource."""
    document = json.loads(path.read_text())["stdout"]
    specs = {p["name"]: p for p in document["pools"]}
    found = []
    for resource in document["resources"]:
        for facts in read_pools(resource["type"], resource["inputs"]):
            # A fixed pool's resource is named after the pool plus the suffix it rotates: its component is the pool.
            owner = (resource.get("parent") or "").rsplit("::", 1)[-1]
            found.append((specs[facts.name if facts.name in specs else owner], facts))
    assert sorted(s["name"] for s, _ in found) == sorted(specs), f"{path.name}: a pool was not read back"
    return found


@pytest.mark.parametrize("path", PLANS, ids=[p.stem for p in PLANS])
def test_every_example_pool_reads_back_as_planned(path: Path) -> None:
    for spec, facts in _planned(path):
        assert facts.provisioner == spec["provisioner"], spec["name"]
        if facts.props.get("capacityType") != "CAPACITY_BLOCK":  # a block's type is in its launch template (#28)
            assert facts.model is not None and facts.model.key == spec["accelerator"], spec["name"]
            assert spec["instanceType"] in facts.instance_types, spec["name"]
            assert facts.gpus_per_node == spec["gpusPerNode"], spec["name"]
        assert facts.labels == spec["nodeLabels"], spec["name"]
        sound = (image_problems(facts), mig_problems(facts), facts.capacity_problems, facts.refused_taints)
        assert sound == ([], [], (), ()), spec["name"]  # gpuready's own pools are sound
        for mig in facts.mig:  # a cloud's own MIG: a profile the GPU has, each GPU advertised as several devices
            assert facts.model is not None and mig.gpu == facts.model.display, spec["name"]
            assert mig.offered is not None and mig.profile in mig.offered, spec["name"]
            assert sum(spec["schedulablePerNode"].values()) > spec["gpusPerNode"], spec["name"]
        if facts.image is not None:  # the image a cloud's pool resource names: one with the driver, for its CPUs
            assert facts.image.elsewhere or (facts.image.driver, facts.image.arch) == (True, facts.arch or "x86_64")
        assert facts.health_off is None or not facts.driver_owner, spec["name"]
        for shared in facts.shared_clients:  # a cloud's own time-sharing: each GPU is advertised once per client
            assert shared.value * spec["gpusPerNode"] == spec["schedulablePerNode"][spec["resourceName"]]
        taint = spec.get("taint")
        assert taint is None or Taint(taint["key"], taint["value"], taint["effect"]) in facts.taints, spec["name"]
        if facts.kind == "ComputeClass":  # GKE sizes the node pools it creates: the class has no bounds
            assert (facts.min_nodes, facts.max_nodes, facts.gpu_limit) == (None, None, None)
        elif facts.elastic:  # a NodePool: no minimum, a nodes limit, a GPU limit counted as its nodes report
            assert (facts.min_nodes, facts.max_nodes) == (None, spec["maxNodes"]), spec["name"]
            assert facts.gpu_limit == spec["schedulableAtMaxSize"][GPU_RESOURCE], spec["name"]
            assert not facts.fixed_count and GPU_RESOURCE in facts.limits, spec["name"]
            assert facts.consolidation == "WhenEmpty" or facts.consolidation_blocked, spec["name"]
        else:
            assert (facts.min_nodes, facts.max_nodes) == (spec["minNodes"], spec["maxNodes"]), spec["name"]


def test_the_examples_read_back_a_cloud_s_own_sharing() -> None:
    assert any(f.shared_clients for path in PLANS for _, f in _planned(path))


def test_the_examples_read_back_a_cloud_s_own_mig_image_and_health_setting() -> None:
    read = [f for path in PLANS for _, f in _planned(path)]
    assert any(f.mig for f in read) and any(f.image for f in read) and any(f.health_off for f in read)


def test_the_examples_cover_every_provisioner_but_auto_mode() -> None:
    """Auto Mode has no example stack: the table below covers it."""
    seen = {(f.cloud, f.provisioner) for path in PLANS for _, f in _planned(path)}
    assert seen == {(p.cloud, p.key) for p in provisioners()} - {("eks", "eks-auto-mode")}


TABLE: list[tuple[str, GpuPoolSpec]] = [
    ("eks-node-group", build_spec("eks", name="l4", instance_type="g6.12xlarge", min_size=1, max_size=3)),
    ("eks-node-group-arm", build_spec("eks", name="gh", instance_type="g5g.xlarge", max_size=2,
                                      labels={"team": "ml"})),
    ("eks-karpenter", build_spec("eks", name="h100", instance_type="p5.48xlarge", max_size=2,
                                 provisioner="karpenter")),
    ("eks-auto-mode", build_spec("eks", name="l4", instance_type="g6.xlarge", max_size=4,
                                 provisioner="eks-auto-mode")),
    ("aks-node-pool", build_spec("aks", name="t4", min_size=1, max_size=3)),
    ("aks-node-pool-a100", build_spec("aks", name="a100", instance_type="Standard_NC24ads_A100_v4", max_size=2)),
    ("aks-node-pool-mig", build_spec("aks", name="a100", instance_type="Standard_NC24ads_A100_v4", max_size=2,
                                     sharing=MigPartitioning(profile="1g.10gb"))),
    ("aks-node-pool-operator", build_spec("aks", name="t4", max_size=2, driver="operator")),
    ("aks-nap", build_spec("aks", name="t4", max_size=3, provisioner="nap")),
    ("gke-node-pool", build_spec("gke", name="l4", min_size=1, max_size=3)),
    ("gke-node-pool-a100", build_spec("gke", name="a100", instance_type="a2-highgpu-1g", max_size=2)),
    ("gke-node-pool-mig", build_spec("gke", name="a100", instance_type="a2-highgpu-1g", max_size=2,
                                     sharing=MigPartitioning(profile="1g.5gb"))),
    ("gke-compute-class", build_spec("gke", name="l4", max_size=2, provisioner="compute-class")),
]  # fmt: skip
"""Pools of every provisioner, as the component tests build them (``tests.core.conftest.build_spec``)."""


@pytest.fixture
def mocked() -> Iterator[CapturingMonitor]:
    yield install_mocks()


def _read_back(monitor: CapturingMonitor, spec: GpuPoolSpec) -> PoolFacts:
    settings = StackSettings(
        cloud=spec.cloud, cluster_name="c", pools=(spec,), cloud_settings=cloud_settings(spec.cloud)
    )

    @runtime_test
    def program() -> None:
        build_pool(spec, settings, lambda: k8s.Provider("cluster", kubeconfig="{}"))

    program()
    read = [f for r in monitor.registrations for f in read_pools(r.type, dict(r.inputs))]
    assert len(read) == 1, [r.type for r in monitor.registrations]
    return read[0]


@pytest.mark.parametrize(("case", "spec"), TABLE, ids=[c for c, _ in TABLE])
def test_every_table_pool_reads_back_as_its_spec(mocked: CapturingMonitor, case: str, spec: GpuPoolSpec) -> None:
    facts = _read_back(mocked, spec)
    provisioner = provisioner_for(spec)
    bounds = provisioner.bounds(spec)
    assert (facts.cloud, facts.provisioner, facts.elastic) == (spec.cloud, provisioner.key, provisioner.elastic)
    assert facts.model == spec.resolved.gpu.model
    assert facts.gpus_per_node == spec.resolved.gpu.gpus
    assert spec.resolved.gpu.instance_type in facts.instance_types
    assert facts.labels == scheduling.pool_labels(spec)
    assert set(scheduling.pool_taints(spec)) <= set(facts.taints)
    assert facts.creation_only == provisioner.creation_only(spec)  # every table pool is autoscaled
    assert (image_problems(facts), mig_problems(facts), facts.shared_clients) == ([], [], ())
    cloud_mig = spec.resolved.delivery == "cloud" and spec.sharing_mode == "mig"
    assert len(facts.mig) == cloud_mig and all(m.gpu == spec.resolved.gpu.model.display for m in facts.mig)
    # the cloud's own GPU health checks are off exactly where its driver is not the cloud's (and it has checks)
    assert facts.health_off is None or (spec.driver, facts.driver_owner) == ("operator", "")
    if provisioner.elastic:
        assert facts.gpu_limit == (None if facts.kind == "ComputeClass" else provisioner.gpu_limit(spec))
        assert not facts.fixed_count
        # the record carries what its provisioner declares of its objects, written once by the reader
        declared = provisioner.node_facts
        assert declared is not None and facts.kind == declared.kind
        assert (facts.title, facts.untainted_note, facts.reservation_terms) == (
            declared.title,
            declared.untainted_note,
            declared.reservation_terms,
        )
        assert (facts.taints_field, facts.labels_field) == (declared.taints_path, declared.labels_path)
        assert facts.platform_plugin == declared.plugin_on(facts.labels)
    else:
        assert (facts.title, facts.untainted_note, facts.reservation_terms) == ("", "", "")
        assert facts.arch == spec.resolved.gpu.arch
        assert (facts.min_nodes, facts.max_nodes, facts.desired_nodes) == (bounds.min, bounds.max, bounds.initial)
        assert facts.driver_owner or spec.driver == "operator"
        assert facts.image is None or (facts.image.named, facts.image.arch) == (
            facts.image.want,
            spec.resolved.gpu.arch,
        )


def test_every_provisioner_reads_what_it_writes() -> None:
    """Each provisioner has a reader of its pool resource; provisioners writing one type share its one reader."""
    readers = pool_readers()
    for provisioner in provisioners():
        assert provisioner.pool_table.type in provisioner.readers, provisioner.key
        for token, reader in provisioner.readers.items():
            assert readers[token] is reader, (provisioner.key, token)
    assert {c for c, _ in TABLE} >= {f"{p.cloud}-{p.key}".replace("eks-eks-", "eks-") for p in provisioners()}
