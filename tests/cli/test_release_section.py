"""The plan's GPU stack section: each release with chart, namespace, waiting and values, then its config maps."""

from __future__ import annotations

from gpuready.cli.release_section import render_releases
from gpuready.offline.plan import JsonValue, PlannedResource

RELEASE_INPUTS: dict[str, JsonValue] = {
    "name": "gpu-operator",
    "chart": "gpu-operator",
    "version": "v26.7.0",
    "repositoryOpts": {"repo": "https://helm.ngc.nvidia.com/nvidia"},
    "namespace": "gpu-operator",
    "timeout": 900,
    "atomic": False,
    "skipAwait": False,
    "values": {"driver": {"enabled": False}, "migManager": {"enabled": False}},
}
CONFIG_MAP_INPUTS: dict[str, JsonValue] = {
    "metadata": {"name": "gpuready-device-plugin-config-0a1b2c3d", "namespace": "gpu-operator"},
    "data": {"default": "version: v1\n", "time-slicing-x4": "version: v1\nsharing:\n  timeSlicing: {}\n"},
}


def _resource(type_: str, name: str, inputs: dict[str, JsonValue]) -> PlannedResource:
    root = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s"
    return PlannedResource(
        type=type_, name=name, parent=root, urn=f"urn:pulumi:s::p::{type_}::{name}", custom=True, inputs=inputs
    )


def test_release_then_config_maps() -> None:
    text = render_releases(
        [
            _resource("kubernetes:core/v1:ConfigMap", "cm", CONFIG_MAP_INPUTS),
            _resource("kubernetes:helm.sh/v3:Release", "gpu-stack-release", RELEASE_INPUTS),
        ]
    )
    lines = text.splitlines()
    assert lines[0] == (
        "Helm release 'gpu-operator': chart gpu-operator v26.7.0 from https://helm.ngc.nvidia.com/nvidia, "
        "namespace gpu-operator, timeout 900 s, waits for the workloads, not atomic"
    )
    assert lines[1:6] == ["  values:", "    driver:", "      enabled: false", "    migManager:", "      enabled: false"]
    assert "ConfigMap gpu-operator/gpuready-device-plugin-config-0a1b2c3d:" in lines
    assert "  default: version: v1" in lines
    assert "  time-slicing-x4:" in lines and "    sharing:" in lines


def test_nothing_without_a_release() -> None:
    assert render_releases([_resource("aws:eks/nodeGroup:NodeGroup", "ng", {})]) == ""


def test_unset_inputs_are_said_in_words_never_none() -> None:
    bare: dict[str, JsonValue] = {"name": "gpu-operator", "chart": "gpu-operator", "values": {}}
    head = render_releases([_resource("kubernetes:helm.sh/v3:Release", "r", bare)]).splitlines()[0]
    assert "None" not in head
    assert "(version not pinned: the newest chart at each deploy)" in head
    assert "namespace (not set: the provider's default namespace)" in head
    assert "timeout (Helm's default, 300 s)" in head


def test_a_gpu_cluster_release_carries_its_lifecycle_note() -> None:
    inputs: dict[str, JsonValue] = {
        **RELEASE_INPUTS,
        "values": {"clusterPolicy": {"deployCR": False}, "gpuCluster": {"deployCR": True}},
    }
    lines = render_releases([_resource("kubernetes:helm.sh/v3:Release", "gpu-stack-release", inputs)]).splitlines()
    assert lines[1].startswith("  note: GPUCluster 'gpu-cluster' (experimental in GPU Operator v26.7.0)")
    assert "kubectl delete gpuclusters.nvidia.com gpu-cluster" in lines[1]
    assert lines[2] == "  values:"
    plain = render_releases([_resource("kubernetes:helm.sh/v3:Release", "gpu-stack-release", RELEASE_INPUTS)])
    assert "note:" not in plain


def test_the_health_agent_add_on_shows_its_configuration_values() -> None:
    inputs: dict[str, JsonValue] = {
        "addonName": "eks-node-monitoring-agent",
        "addonVersion": "v1.7.0-eksbuild.1",
        "configurationValues": '{"dcgmAgent":{"tolerations":[{"key":"nvidia.com/gpu","operator":"Exists"}]}}',
    }
    text = render_releases([_resource("aws:eks/addon:Addon", "eks-node-monitoring-agent", inputs)])
    assert text.splitlines()[:4] == [
        "EKS add-on 'eks-node-monitoring-agent' v1.7.0-eksbuild.1",
        "  configuration values:",
        "    dcgmAgent:",
        "      tolerations:",
    ]
    assert render_releases([_resource("aws:eks/addon:Addon", "vpc-cni", {"addonName": "vpc-cni"})]) == ""
