"""``gpuready:gpuStack`` ``values`` and ``monitoring`` through the REAL stack program, offline: the extra values
reach the registered ``helm.v3.Release`` merged with gpuready's, and the release renders with real Helm into pods
pulling from the private registry (``tests.helm_render``)."""

from __future__ import annotations

from collections.abc import Sequence

from gpuready.offline.capture import RegisteredResource
from tests.helm_render import render
from tests.stacks.program_runs import config_bag, run_stack

REGISTRY = "registry.example.com/nvidia"
GPU_STACK = (
    "{kind: gpu-operator, timeoutSeconds: 1200, monitoring: false, values: {"
    f"operator: {{repository: {REGISTRY}, imagePullSecrets: [regcred]}}, "
    f"validator: {{repository: {REGISTRY}, imagePullSecrets: [regcred]}}}}}}"
)


def _release(resources: Sequence[RegisteredResource]) -> RegisteredResource:
    (release,) = [r for r in resources if r.type == "kubernetes:helm.sh/v3:Release"]
    return release


def test_values_and_monitoring_reach_the_release_and_the_rendered_objects() -> None:
    run = run_stack("eks-dev", config_bag("eks-dev", [f"gpuready:gpuStack={GPU_STACK}"]))
    inputs = _release(run.resources).inputs
    values = inputs["values"]
    assert values["operator"] == {"upgradeCRD": True, "repository": REGISTRY, "imagePullSecrets": ["regcred"]}
    assert values["validator"] == {"repository": REGISTRY, "imagePullSecrets": ["regcred"]}
    assert values["dcgmExporter"] == {"serviceMonitor": {"enabled": False}}
    assert values["driver"]["enabled"] is False  # gpuready's decision, kept beside the user's keys

    rendered = render(inputs["chart"], inputs["version"], values, name=inputs["name"], namespace=inputs["namespace"])
    (operator,) = [d for d in rendered.of_kind("Deployment") if d["metadata"]["name"] == "gpu-operator"]
    pod = operator["spec"]["template"]["spec"]
    assert pod["containers"][0]["image"].startswith(f"{REGISTRY}/gpu-operator:")
    assert pod["imagePullSecrets"] == [{"name": "regcred"}]
    policy = rendered.one("ClusterPolicy")["spec"]
    assert (policy["validator"]["repository"], policy["validator"]["imagePullSecrets"]) == (REGISTRY, ["regcred"])
    assert policy["dcgmExporter"]["serviceMonitor"]["enabled"] is False
