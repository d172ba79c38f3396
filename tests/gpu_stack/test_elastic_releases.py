"""The GPU stack over elastic pools, rendered by real Helm: what reaches the nodes Karpenter, EKS Auto Mode and AKS NAP
make is read from the NodePool objects gpuready builds (their template labels and taints), not from the pool spec.

- NFD's worker runs on every elastic pool's nodes, by the template label ``gpuready.io/gpu-pool=true``, tolerates
  the template's taints, and runs on no system node (issue #14 item 5: "NFD restricted to them by a template label").
- The device-plugin chart's DaemonSet reaches those nodes too (it runs only there because the stack rules refuse it
  wherever the platform has its own plugin).
- Over an EKS Auto Mode pool the operator installs neither driver nor toolkit and its NodePool template switches the
  operator's driver, toolkit, device-plugin and MIG-manager operands off (``nvidia.com/gpu.deploy.*=false``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from gpuready.aks import nap
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import auto_mode, karpenter
from tests.gpu_stack import rendered_checks as checks
from tests.gpu_stack.stack_scenarios import SCENARIOS, Scenario
from tests.helm_render import pod_specs, render_release, selects, tolerates

NODE_POOLS: Mapping[str, Callable[[GpuPoolSpec], dict[str, Any]]] = {
    "karpenter": karpenter.node_pool,
    "eks-auto-mode": auto_mode.node_pool,
    "nap": nap.node_pool,
}
ELASTIC = [s for s in SCENARIOS if any(p.provisioner in NODE_POOLS for p in s.pool_set.pools)]
NFD_WORKER = checks.NFD_WORKER
PLUGIN_DAEMONSET = "nvidia-device-plugin"


def _template(pool: GpuPoolSpec) -> tuple[dict[str, str], list[dict[str, str]]]:
    template = NODE_POOLS[str(pool.provisioner)](pool)["spec"]["template"]
    return template["metadata"]["labels"], template["spec"]["taints"]


def test_the_scenarios_cover_every_karpenter_based_provisioner_under_both_charts() -> None:
    covered = {(p.provisioner, s.kind) for s in ELASTIC for p in s.pool_set.pools if p.provisioner in NODE_POOLS}
    assert {key for key, _ in covered} == set(NODE_POOLS)
    assert {kind for _, kind in covered} == {"gpu-operator", "device-plugin"}


@pytest.mark.parametrize("scenario", ELASTIC, ids=[s.id for s in ELASTIC])
def test_the_stack_reaches_the_nodes_of_every_elastic_pool(scenario: Scenario) -> None:
    plan = scenario.plan()
    assert plan.release is not None
    rendered = render_release(plan.release, version=plan.release.chart.version)
    daemonsets = {o["metadata"]["name"]: spec for o, spec in pod_specs(rendered.of_kind("DaemonSet"))}
    workers = [spec for name, spec in daemonsets.items() if name.endswith(NFD_WORKER)]
    plugins = [spec for name, spec in daemonsets.items() if name.endswith(PLUGIN_DAEMONSET)]
    if plan.spec.deploys_nfd:
        assert len(workers) == 1
        assert not selects(workers[0], checks.NON_GPU_NODE)
    if scenario.kind == "device-plugin":
        assert plugins, sorted(daemonsets)
    for pool in scenario.pool_set.pools:
        if pool.provisioner not in NODE_POOLS:
            continue
        labels, taints = _template(pool)
        for spec in workers + plugins:
            assert selects(spec, labels), f"{pool.name}: {labels}"
            for taint in taints:
                assert tolerates(spec.get("tolerations") or [], taint["key"], taint.get("value", ""), taint["effect"])


def test_the_operator_over_eks_auto_mode_leaves_its_nvidia_stack_alone() -> None:
    (scenario,) = [s for s in ELASTIC if s.id == "eks-karpenter-and-auto-mode/gpu-operator/defaults"]
    plan = scenario.plan()
    assert plan.release is not None
    (policy,) = render_release(plan.release).of_kind("ClusterPolicy")
    assert (policy["spec"]["driver"]["enabled"], policy["spec"]["toolkit"]["enabled"]) == (False, False)
    for pool in scenario.pool_set.pools:
        if pool.provisioner not in NODE_POOLS:
            continue
        labels, _ = _template(pool)
        off = {key for key, value in labels.items() if key.startswith("nvidia.com/gpu.deploy.") and value == "false"}
        if pool.provisioner == "eks-auto-mode":
            assert off == {f"nvidia.com/gpu.deploy.{o}" for o in ("driver", "container-toolkit", "device-plugin",
                                                                    "mig-manager")}  # fmt: skip
        else:
            assert off == set(), pool.name
