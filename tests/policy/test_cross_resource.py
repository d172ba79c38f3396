"""The cross-resource policies on tiny raw programs run offline (issue #27): two device plugins on one pool across
Releases, Charts and DaemonSets, a GPU Operator installed as a Chart, sharing bounds in a referenced ConfigMap, NFD
twice and everywhere; and the sku=gpu convention that planned with false violations before it could be said."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from gpuready.offline.analyzer import analyze_pack
from gpuready.offline.policy_run import Violation
from tests.policy.harness import run_source

PRELUDE = """
import pulumi_aws as aws
import pulumi_azure_native.containerservice as aks
import pulumi_kubernetes as k8s

GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}
LABELS = {"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "l4", "gpuready.io/gpu-pool": "true"}
OFF = {"driver": {"enabled": False}, "toolkit": {"enabled": False}, "nfd": {"enabled": False}}


def eks_pool():
    aws.eks.NodeGroup("l4", cluster_name="ml", node_role_arn="arn:aws:iam::123456789012:role/gpu",
        subnet_ids=["subnet-a"], instance_types=["g6.xlarge"], ami_type="AL2023_x86_64_NVIDIA", labels=LABELS,
        taints=[GPU_TAINT], scaling_config={"min_size": 0, "max_size": 2, "desired_size": 1})


def release(chart, version, namespace, values):
    return k8s.helm.v3.Release(chart, chart=chart, version=version, namespace=namespace, create_namespace=True,
        timeout=1800, values=values)


def operator(values=OFF):
    return release("gpu-operator", "v26.7.0", "gpu-operator", values)


def device_plugin(values=None):
    return release("nvidia-device-plugin", "0.20.0", "nvidia-device-plugin", values or {})
"""

DAEMON_SET = """
k8s.apps.v1.DaemonSet("plugin", metadata={"name": "plugin", "namespace": "kube-system"}, spec={
    "selector": {"matchLabels": {"app": "plugin"}},
    "template": {"metadata": {"labels": {"app": "plugin"}}, "spec": {
        "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}],
        "containers": [{"name": "p", "image": "nvcr.io/nvidia/k8s-device-plugin:v0.20.0"}]}}})
"""


def judge(tmp_path: Path, body: str, config: dict[str, Any] | None = None, *, pool: bool = True) -> list[Violation]:
    """The pack's violations on a program of ``body``, after an EKS L4 pool unless ``pool`` is false."""
    source = PRELUDE + ("eks_pool()\n" if pool else "") + textwrap.dedent(body)
    return analyze_pack(run_source(tmp_path, source), config=config)


def of(found: list[Violation], policy: str) -> list[str]:
    return [v.message for v in found if v.policy == policy]


@pytest.mark.parametrize(
    ("body", "count", "names"),
    [
        ("operator()\ndevice_plugin()", 2, ("'gpu-operator' (gpu-operator)", "'nvidia-device-plugin'")),
        ("operator()" + DAEMON_SET, 2, ("gpu-operator", "DaemonSet 'plugin'")),
        (
            'k8s.helm.v4.Chart("op", chart="oci://ghcr.io/nvidia/gpu-operator", version="v26.7.0", '
            'namespace="gpu-operator", values=OFF)\ndevice_plugin()',
            2,
            ("Chart (helm.sh/v4) 'op' (gpu-operator)", "nvidia-device-plugin"),
        ),
    ],
    ids=["operator-and-plugin-chart", "operator-and-raw-daemonset", "v4-chart-operator-and-plugin"],
)
def test_two_device_plugins_on_one_pool_are_refused(
    tmp_path: Path, body: str, count: int, names: tuple[str, ...]
) -> None:
    found = judge(tmp_path, body)
    (message,) = of(found, "gpu-pool-one-device-plugin")
    assert f"{count} device plugins run on its nodes" in message
    assert all(name in message for name in names), message
    assert all(v.level == "mandatory" for v in found if v.policy == "gpu-pool-one-device-plugin")


@pytest.mark.parametrize(
    "body",
    [
        "operator()\ndevice_plugin({'nodeSelector': {'example.com/other': 'pool'}})",
        "operator({**OFF, 'devicePlugin': {'enabled': False}})\ndevice_plugin()",
        "device_plugin()",
    ],
    ids=["plugin-kept-off-the-pool", "operator-plugin-disabled", "one-plugin"],
)
def test_one_device_plugin_per_pool_passes(tmp_path: Path, body: str) -> None:
    assert of(judge(tmp_path, body), "gpu-pool-one-device-plugin") == []


def test_a_chart_installed_operator_is_read_like_a_release(tmp_path: Path) -> None:
    found = judge(
        tmp_path,
        'k8s.helm.v4.Chart("op", chart="gpu-operator", version="v26.7.0", namespace="gpu-operator", '
        "repository_opts={'repo': 'https://helm.ngc.nvidia.com/nvidia'}, values={})",
    )
    # Its values are read: the operator's own driver meets the NVIDIA AMI's, and the pool counts as served.
    assert any("two NVIDIA driver owners" in m for m in of(found, "gpu-stack-single-driver-owner"))
    assert of(found, "gpu-pool-served-by-gpu-stack") == []


def test_an_unreadable_v3_chart_is_named_and_no_advisory_claims_nothing_serves_the_pool(tmp_path: Path) -> None:
    found = judge(
        tmp_path,
        'k8s.helm.v3.Chart("gpu-operator", k8s.helm.v3.ChartOpts(chart="gpu-operator", version="v26.7.0", '
        'namespace="gpu-operator", fetch_opts=k8s.helm.v3.FetchOpts(repo="https://helm.ngc.nvidia.com/nvidia")))',
    )
    (notice,) = of(found, "gpu-helm-chart-readable")
    assert "Chart (helm.sh/v3) 'gpu-operator'" in notice and "no GPU rule can tell" in notice
    (served,) = of(found, "gpu-pool-served-by-gpu-stack")
    assert "cannot be told" in served and "nothing in this stack advertises" not in served


CONFIG_MAP = """
k8s.core.v1.ConfigMap("sharing", metadata={"name": "sharing", "namespace": "nvidia-device-plugin"},
    data={"any": "version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n    - name: nvidia.com/gpu\\n"
                 "      replicas: REPLICAS\\n"})
device_plugin({"config": {"name": "sharing", "default": "any"}})
"""


@pytest.mark.parametrize(("replicas", "bad"), [(10000, True), (49, True), (1, True), (4, False), (48, False)])
def test_sharing_bounds_are_read_from_the_referenced_config_map(tmp_path: Path, replicas: int, bad: bool) -> None:
    found = of(judge(tmp_path, CONFIG_MAP.replace("REPLICAS", str(replicas))), "gpu-sharing-config-map-within-bounds")
    assert bool(found) is bad
    if bad:
        assert f"got {replicas}" in found[0] and "ConfigMap 'sharing'" in found[0]


NFD = """
release("node-feature-discovery", "0.19.0", "node-feature-discovery", NFD_VALUES)
"""


@pytest.mark.parametrize(
    ("values", "operator_nfd", "twice", "everywhere"),
    [
        ("{}", False, False, True),
        ("{'worker': {'nodeSelector': {'gpuready.io/gpu-pool': 'true'}}}", False, False, False),
        ("{'worker': {'nodeSelector': {'gpuready.io/gpu-pool': 'true'}}}", True, True, False),
    ],
    ids=["nfd-everywhere", "nfd-restricted", "nfd-twice"],
)
def test_nfd_of_its_own_runs_once_and_not_on_every_node(
    tmp_path: Path, values: str, operator_nfd: bool, twice: bool, everywhere: bool
) -> None:
    body = NFD.replace("NFD_VALUES", values) + ("operator({**OFF, 'nfd': {'enabled': True}})" if operator_nfd else "")
    found = judge(tmp_path, body)
    assert bool(of(found, "gpu-nfd-deployed-once")) is twice
    assert bool(of(found, "gpu-nfd-chart-restricted")) is everywhere
    if everywhere:
        assert "runs on every node" in of(found, "gpu-nfd-chart-restricted")[0]


SKU = """
aks.AgentPool("t4", resource_group_name="rg", resource_name_="aks", agent_pool_name="t4",
    vm_size="Standard_NC4as_T4_v3", node_taints=["sku=gpu:NoSchedule"],
    node_labels={"nvidia.com/gpu.present": "true", "gpuready.io/accelerator": "t4"})
k8s.helm.v3.Release("nvidia-device-plugin", chart="nvidia-device-plugin", version="0.20.0",
    namespace="nvidia-device-plugin", create_namespace=True, timeout=900, values={"tolerations": [SKU_TOLERATION]})
k8s.core.v1.Pod("train", spec={"containers": [{"name": "c", "image": "cuda",
    "resources": {"limits": {"nvidia.com/gpu": "1"}}}], "tolerations": [SKU_TOLERATION]})
"""
SKU_TOLERATION = '{"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"}'
SKU_POLICIES = (
    "gpu-node-pool-requires-gpu-taint",
    "gpu-helm-release-tolerations-use-exists",
    "gpu-workload-tolerates-gpu-taint",
    "non-gpu-workload-avoids-gpu-taint",
)


def test_microsofts_sku_gpu_convention_plans_clean_once_said(tmp_path: Path) -> None:
    body = SKU.replace("SKU_TOLERATION", SKU_TOLERATION)
    before = judge(tmp_path / "unsaid", body, pool=False)
    # Unsaid, the pack holds the stack to nvidia.com/gpu, and says only what is true of it.
    assert {v.policy for v in before if v.level == "mandatory"} >= set(SKU_POLICIES[:3])
    (release,) = of(before, "gpu-helm-release-tolerations-use-exists")
    assert "none of its pods runs on nodes tainted nvidia.com/gpu" in release
    taint = {"key": "sku", "value": "gpu", "effect": "NoSchedule"}
    config = {name: {"gpuTaint": taint} for name in SKU_POLICIES}
    after = judge(tmp_path / "said", body, config, pool=False)
    assert [v for v in after if v.level == "mandatory"] == []


@pytest.mark.parametrize(
    ("props", "policy", "said"),
    [
        ("version=None", "gpu-helm-release-version-pinned", "version: not set"),
        ("namespace='default'", "gpu-helm-release-not-in-default-namespace", "namespace: 'default'"),
        ("values={**OFF, 'daemonsets': {'tolerations': []}}", "gpu-helm-release-tolerations-use-exists",
         "does not tolerate nvidia.com/gpu"),
    ],
    ids=["version", "namespace", "tolerations"],
)  # fmt: skip
def test_v4_chart_values_are_judged_like_a_releases(tmp_path: Path, props: str, policy: str, said: str) -> None:
    """Version pin, namespace and tolerations are read from a v4 Chart as from a Release (a Chart has no Helm
    timeout: that rule stays with Releases)."""
    settings = {"version": "'v26.7.0'", "namespace": "'gpu-operator'", "values": "OFF"}
    key, _, value = props.partition("=")
    settings[key] = value
    arguments = ", ".join(f"{k}={v}" for k, v in settings.items())
    found = judge(tmp_path, f'k8s.helm.v4.Chart("op", chart="gpu-operator", {arguments})')
    assert any(said in m for m in of(found, policy)), found
    assert of(found, "gpu-helm-release-timeout") == []


def affinity_daemon_set(*expressions: dict[str, Any]) -> str:
    """The raw plugin DaemonSet kept where one required node affinity term of ``expressions`` says."""
    terms = [{"matchExpressions": list(expressions)}]
    return DAEMON_SET.replace(
        '"tolerations":',
        f'"affinity": {{"nodeAffinity": {{"requiredDuringSchedulingIgnoredDuringExecution": '
        f'{{"nodeSelectorTerms": {terms!r}}}}}}}, "tolerations":',
    )


@pytest.mark.parametrize(
    ("expression", "lands"),
    [
        ({"key": "gpuready.io/accelerator", "operator": "In", "values": ["l4"]}, True),
        ({"key": "gpuready.io/accelerator", "operator": "In", "values": ["h100"]}, False),
        ({"key": "gpuready.io/accelerator", "operator": "NotIn", "values": ["l4"]}, False),
        ({"key": "gpuready.io/accelerator", "operator": "NotIn", "values": ["h100"]}, True),
        ({"key": "nvidia.com/gpu.present", "operator": "Exists"}, True),
        ({"key": "gpuready.io/gpu-pool", "operator": "DoesNotExist"}, False),
        ({"key": "example.com/cpu-only", "operator": "DoesNotExist"}, True),
    ],
    ids=["in", "in-other", "notin", "notin-other", "exists", "doesnotexist-gpu-pool", "doesnotexist-absent"],
)
def test_a_raw_daemon_sets_required_node_affinity_decides_whether_it_lands(
    tmp_path: Path, expression: dict[str, Any], lands: bool
) -> None:
    found = of(judge(tmp_path, "operator()" + affinity_daemon_set(expression)), "gpu-pool-one-device-plugin")
    assert bool(found) == lands, found
    if lands:
        assert "DaemonSet 'plugin'" in found[0]
