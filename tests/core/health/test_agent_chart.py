"""The EKS node monitoring agent: gpuready's facts of its chart 1.7.0, and the add-on configuration values it plans,
checked against the chart (rendered by real Helm) and the add-on's configuration schema in ../shared."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from helm_python import Chart

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.gpu_stack.stack_plan import plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health import agent_chart
from gpuready.core.health.agent import HealthSpec
from gpuready.core.scheduling import GPU_TAINT_KEY
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint
from tests.core.conftest import build_spec
from tests.helm_render import is_core, selects, strict_problems, tolerates

UPSTREAM = Path(__file__).resolve().parents[3].parent / "shared/reference/upstream"
CHART = UPSTREAM / "charts/eks-node-monitoring-agent-1.7.0.source.tgz"
SCHEMA = UPSTREAM / "eks-node-monitoring-agent/configuration.schema.v1.7.0.json"


def _require(path: Path) -> Path:
    if not path.is_file():
        pytest.skip(f"{path} is absent (shared reference data)")
    return path


@cache
def chart_bytes() -> bytes:
    return _require(CHART).read_bytes()


def chart_values() -> dict[str, Any]:
    import io  # noqa: PLC0415
    import tarfile  # noqa: PLC0415

    with tarfile.open(fileobj=io.BytesIO(chart_bytes())) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("/values.yaml"))
        handle = archive.extractfile(member)
        assert handle is not None
        loaded: dict[str, Any] = yaml.safe_load(handle.read())
        return loaded


def render(values: dict[str, Any]) -> list[dict[str, Any]]:
    manifests = Chart.load_archive(chart_bytes()).render(values, name="eks-node-monitoring-agent",
                                                         namespace="kube-system", is_install=True)  # fmt: skip
    return [d for path, text in manifests.items() if path.endswith(".yaml") for d in yaml.safe_load_all(text) if d]


def plan_values(pools: list[GpuPoolSpec], kind: str, dcgm: str | None = None, **stack: Any) -> dict[str, Any]:
    spec = GpuStackSpec(kind=kind, health=HealthSpec(agent="eks-node-monitoring-agent", dcgm=dcgm), **stack)
    plan = plan_gpu_stack(cloud_profile("eks"), pools, spec)
    assert plan.agent_values is not None
    return dict(plan.agent_values)


def test_the_chart_facts_are_the_charts() -> None:
    values = chart_values()
    assert values["nodeAgent"]["image"]["tag"] == agent_chart.AGENT_ADDON_VERSION
    dcgm_terms = values["dcgmAgent"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    expressions = {e["key"]: e for e in dcgm_terms["nodeSelectorTerms"][0]["matchExpressions"]}
    assert set(expressions["node.kubernetes.io/instance-type"]["values"]) == agent_chart.DCGM_SERVER_INSTANCE_TYPES
    assert expressions["kubernetes.io/arch"]["values"] == [agent_chart.DCGM_SERVER_ARCH]
    assert values["dcgmAgent"]["tolerations"] == []  # the default does not tolerate the GPU taint
    node_terms = values["nodeAgent"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    compute = next(e for e in node_terms["nodeSelectorTerms"][0]["matchExpressions"]
                   if e["key"] == "eks.amazonaws.com/compute-type")  # fmt: skip
    assert tuple(compute["values"]) == agent_chart.NODE_AGENT_EXCLUDED_COMPUTE
    dcgm_server = next(o for o in render({}) if o["metadata"]["name"] == "dcgm-server")
    container = dcgm_server["spec"]["template"]["spec"]["containers"][0]
    assert container["ports"][0]["hostPort"] == agent_chart.DCGM_PORT


POOLS = {
    "taints": [build_spec("eks", name="l4", instance_type="g6.xlarge",
                          taints=(Taint(key="team", value="ml", effect="NoExecute"),)),
               build_spec("eks", name="h100", instance_type="p5.48xlarge")],
}  # fmt: skip


@pytest.mark.parametrize(("kind", "dcgm", "stack"), [
    ("device-plugin", None, {}),
    ("gpu-operator", None, {}),
    ("gpu-operator", "health-agent", {"monitoring": False}),
    ("external", None, {}),
])  # fmt: skip
def test_planned_values_fit_the_schema_render_and_reach_the_pools(kind: str, dcgm: str | None,
                                                                  stack: dict[str, Any]) -> None:  # fmt: skip
    pools = POOLS["taints"]
    values = plan_values(pools, kind, dcgm, **stack)
    schema = json.loads(_require(SCHEMA).read_text())
    jsonschema.Draft7Validator(schema).validate(values)
    objects = render(values)
    for obj in objects:
        if is_core(obj):
            assert strict_problems(obj, "1.33") == [], obj["metadata"]["name"]
    agent = next(
        o for o in objects if o["kind"] == "DaemonSet" and o["metadata"]["name"] == "eks-node-monitoring-agent"
    )
    dcgm_server = next(o for o in objects if o["kind"] == "DaemonSet" and o["metadata"]["name"] == "dcgm-server")
    owner = HealthSpec(agent="eks-node-monitoring-agent", dcgm=dcgm).dcgm_owner(kind)
    for pool in pools:
        labels = {
            "kubernetes.io/os": "linux",
            "kubernetes.io/arch": "amd64",
            "gpuready.io/gpu-pool": "true",
            "nvidia.com/gpu.present": "true",
            "node.kubernetes.io/instance-type": pool.resolved.gpu.instance_type,
        }
        taints = [(GPU_TAINT_KEY, "present", "NoSchedule"), *((t.key, t.value, t.effect) for t in pool.taints)]
        agent_spec = agent["spec"]["template"]["spec"]
        assert selects(agent_spec, labels) and all(tolerates(agent_spec.get("tolerations") or [], *t) for t in taints)
        dcgm_spec = dcgm_server["spec"]["template"]["spec"]
        lands = selects(dcgm_spec, labels) and all(tolerates(dcgm_spec.get("tolerations") or [], *t) for t in taints)
        assert lands == (owner == "health-agent"), (pool.name, owner)  # one host engine per node, never two
