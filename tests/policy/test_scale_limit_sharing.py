"""The NodePool GPU-limit policy reads the sharing of device-plugin configs named freely from the configs the stack
carries (the plugin chart's ``config.map``, the GPU Operator's ``devicePlugin.config.data`` or the ConfigMap its
``devicePlugin.config.name`` names), on raw programs that do not use gpuready's components
(kubernetes-sigs/karpenter v1.14.1 statenode.go L359-375, scheduler.go L1069-1085: the limit is spent as nodes
report)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.policy.rules.sharing_configs import Sharing, sharing_of
from tests.policy.builders import NODE_POOL, RELEASE, node_pool, operator, plugin
from tests.policy.harness import messages, pack_violations

LIMIT = "gpu-nodepool-limit-counts-reported-gpus"
CONFIG_MAP = "kubernetes:core/v1:ConfigMap"
G6_12 = [{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.12xlarge"]}]


def _config(mode: str = "timeSlicing", replicas: object = 4, **extra: Any) -> str:
    """A device-plugin config file (NVIDIA/k8s-device-plugin api/config/v1) sharing nvidia.com/gpu."""
    resource = {"name": "nvidia.com/gpu", "replicas": replicas, **extra.pop("resource", {})}
    return yaml.safe_dump({"version": "v1", "sharing": {mode: {"resources": [resource], **extra}}})


def _pool(config_name: str, limit: str = "16", nodes: str | None = None) -> dict[str, Any]:
    props = node_pool(G6_12, limits={"nvidia.com/gpu": limit, **({"nodes": nodes} if nodes else {})})
    props["spec"]["template"]["metadata"]["labels"]["nvidia.com/device-plugin.config"] = config_name
    return props


@pytest.mark.parametrize(
    ("text", "sharing"),
    [
        (_config(), Sharing("time-slicing", 4, False)),
        (_config("mps", 2), Sharing("mps", 2, False)),
        (_config(renameByDefault=True), Sharing("time-slicing", 4, True)),
        (_config(resource={"rename": "nvidia.com/gpu.shared"}), Sharing("time-slicing", 4, True)),
        (_config(replicas=2.5), None),
        (yaml.safe_dump({"version": "v1", "flags": {"migStrategy": "single"}}), None),
        ("sharing: [", None),
    ],
    ids=["time-slicing", "mps", "rename-by-default", "renamed", "fractional", "no-sharing", "not-yaml"],
)
def test_a_config_files_sharing_of_nvidia_gpu(text: str, sharing: Sharing | None) -> None:
    assert sharing_of(text) == sharing


# g6.12xlarge: 4 L4 GPUs; a limit of 16 was meant for 4 nodes
STACKS: list[tuple[str, list[tuple[str, dict[str, Any]]], str]] = [
    ("plugin-config-map", [(RELEASE, plugin({"config": {"map": {"shared-4": _config()}}})),
                           (NODE_POOL, _pool("shared-4"))], "stops after 1 node(s) of the 4"),
    ("operator-inline", [(RELEASE, operator({"devicePlugin": {"config": {"data": {"mps2": _config("mps", 2)}}}})),
                         (NODE_POOL, _pool("mps2", "12"))], "stops after 2 node(s) of the 3"),
    ("operator-config-map", [
        (RELEASE, operator({"devicePlugin": {"config": {"name": "plugin-configs"}}})),
        (CONFIG_MAP, {"metadata": {"name": "plugin-configs"}, "data": {"ts": _config(replicas=8)}}),
        (NODE_POOL, _pool("ts"))], "stops after 1 node(s) of the 4"),
    ("limit-counts-shares", [(RELEASE, plugin({"config": {"map": {"shared-4": _config()}}})),
                             (NODE_POOL, _pool("shared-4", "64", "4"))], ""),
    ("renamed-shares", [(RELEASE, plugin({"config": {"map": {"renamed": _config(renameByDefault=True)}}})),
                        (NODE_POOL, _pool("renamed"))], ""),
    ("config-not-in-the-stack", [(NODE_POOL, _pool("made-elsewhere"))], ""),
]  # fmt: skip


@pytest.mark.parametrize(("resources", "words"), [s[1:] for s in STACKS], ids=[s[0] for s in STACKS])
def test_the_limit_rule_reads_the_stacks_sharing_configs(
    resources: list[tuple[str, dict[str, Any]]], words: str
) -> None:
    found = messages(LIMIT, resources)
    assert (found != []) is (words != ""), found  # before: every free config name counted as whole GPUs
    assert all(words in m and "of the stack" in m and "statenode.go" in m for m in found), found


def test_gpureadys_own_names_still_need_no_config() -> None:
    (found,) = messages(LIMIT, [(NODE_POOL, _pool("time-slicing-x4"))])
    assert "4 GPUs x 4 time-slicing shares = 16" in found and "of the stack" not in found


PROGRAM = """
import pulumi_kubernetes as k8s

SHARED = '''
version: v1
sharing:
  timeSlicing:
    resources:
    - name: nvidia.com/gpu
      replicas: 4
'''
k8s.helm.v3.Release("plugin", chart="nvidia-device-plugin", version="0.20.0", namespace="nvidia-device-plugin",
    values={"config": {"map": {"l4-shared": SHARED}}})
k8s.apiextensions.CustomResource("l4", api_version="karpenter.sh/v1", kind="NodePool", metadata={"name": "l4"},
    spec={"limits": {"nvidia.com/gpu": "%s", "nodes": "4"}, "template": {
        "metadata": {"labels": {"nvidia.com/device-plugin.config": "l4-shared"}},
        "spec": {"nodeClassRef": {"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "l4"},
                 "requirements": [{"key": "node.kubernetes.io/instance-type", "operator": "In",
                                   "values": ["g6.12xlarge"]}],
                 "taints": [{"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}]}}})
"""


@pytest.mark.parametrize(("limit", "stops"), [("16", True), ("64", False)])
def test_a_raw_program_with_a_free_config_name_is_checked(tmp_path: Path, limit: str, stops: bool) -> None:
    violations = [v for v in pack_violations(tmp_path / "p", PROGRAM % limit) if v.policy == LIMIT]
    assert bool(violations) is stops
    for violation in violations:
        assert "device-plugin config 'l4-shared' of the stack" in violation.message
        assert "stops after 1 node(s) of the 4" in violation.message and violation.level == "mandatory"
