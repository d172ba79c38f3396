"""The EFA device plugin release, rendered by real Helm from the pinned chart (aws/eks-charts
aws-efa-k8s-device-plugin v0.5.30): its DaemonSet runs only on the stack's EFA pools and tolerates their taints."""

from __future__ import annotations

from typing import Any

from gpuready.core import pool_config
from gpuready.core.gpu_stack.chart_facts import chart_values
from gpuready.eks import efa_plugin
from tests.helm_render import pod_specs, render, selects, strict_problems, tolerates

POOLS: list[dict[str, Any]] = [
    {"name": "train", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "fabric": "efa",
     "zones": ["us-east-1a"], "taints": [{"key": "team", "value": "ml", "effect": "NoSchedule"}]},
    {"name": "burst", "instanceType": "p5en.48xlarge", "maxSize": 4, "provisioner": "karpenter", "fabric": "efa",
     "zones": ["us-east-1a"]},
    {"name": "serve", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2},
]  # fmt: skip


def test_the_release_runs_only_on_the_efa_pools_and_tolerates_them() -> None:
    specs = pool_config.parse_pools(POOLS, "eks")
    values = efa_plugin.values(specs)
    rendered = render(efa_plugin.CHART, efa_plugin.VERSION, values, name=efa_plugin.RELEASE,
                      namespace=efa_plugin.NAMESPACE)  # fmt: skip
    ((daemonset, pod),) = list(pod_specs(rendered.objects))
    assert daemonset["kind"] == "DaemonSet"
    terms = pod["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    (term,) = terms
    assert {"key": "gpuready.io/pool", "operator": "In", "values": ["train", "burst"]} in term["matchExpressions"]
    for spec in specs:
        assert selects(pod, {"gpuready.io/pool": spec.name}) == (spec.fabric is not None), spec.name
    assert strict_problems(daemonset) == []
    for taint in (("nvidia.com/gpu", "present", "NoSchedule"), ("team", "ml", "NoSchedule")):
        assert tolerates(pod["tolerations"], *taint), taint
    assert efa_plugin.summary(specs).endswith("on the EFA pools train, burst: advertises vpc.amazonaws.com/efa")


def test_values_are_keys_the_chart_reads() -> None:
    tree = chart_values(efa_plugin.CHART, efa_plugin.VERSION).tree
    specs = pool_config.parse_pools(POOLS, "eks")
    values = efa_plugin.values(specs)
    assert set(values) <= set(tree)
    assert set(values["supportedInstanceLabels"]) == set(tree["supportedInstanceLabels"])


def test_no_efa_pool_no_release() -> None:
    specs = pool_config.parse_pools(POOLS[2:], "eks")
    assert efa_plugin.efa_pools(specs) == []
