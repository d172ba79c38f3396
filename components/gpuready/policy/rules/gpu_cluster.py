"""Stack rule on the GPU Operator's experimental GPUCluster stack (``gpuCluster.deployCR``). Pure.

Facts (NVIDIA/gpu-operator, tag ``v26.7.0``): the GPUCluster's DRA kubelet plugin runs on every node labelled
``nvidia.com/gpu.deploy.dra-driver=true`` (``manifests/state-dra-driver/0500_daemonset.yaml``), and the operator
sets that label on every node whose NFD labels show an NVIDIA GPU, unless the node already carries a non-empty value
(``updateGPUClusterStateLabels`` in ``controllers/nodelabeling_controller.go``); its scheduling is "opinionated and
not configurable" (chart values.yaml ``draDriver``). So a GPU pool that advertises by a device plugin would run both
plugins unless it opts out by that label. The chart itself refuses ``gpuCluster.deployCR`` together with
``clusterPolicy.deployCR`` (``templates/validations.yaml`` L1-3), and the operator refuses to label nodes while both
CRs exist.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.scheduling import LABEL_ADVERTISE, LABEL_DEPLOY_DRA_DRIVER
from gpuready.policy.rules.stack import Finding, StackResource, collect


def gpu_cluster_findings(resources: Sequence[StackResource], config: Mapping[str, Any]) -> list[Finding]:
    """A GPU Operator release that deploys a GPUCluster deploys no ClusterPolicy, and every GPU pool of the stack
    is a DRA pool or opts out of the GPUCluster's DRA plugin."""
    pools, releases = collect(resources)
    clusters = [r for r in releases if r.release.deploys_gpu_cluster]
    findings = [
        Finding(
            r.urn,
            f"release {r.name!r}: values gpuCluster.deployCR and clusterPolicy.deployCR (true by default) are both "
            "on, which the gpu-operator chart refuses (templates/validations.yaml) and the operator cannot run with "
            "(it labels no node while both CRs exist). Set clusterPolicy.deployCR: false",
        )
        for r in clusters
        if r.release.deploys_cluster_policy
    ]
    if not clusters:
        return findings
    names = ", ".join(repr(r.name) for r in clusters)
    for p in pools:
        labels = p.pool.labels
        if labels.get(LABEL_ADVERTISE) == DYNAMIC_RESOURCES.pool_value or labels.get(LABEL_DEPLOY_DRA_DRIVER):
            continue
        findings.append(
            Finding(
                p.urn,
                f"GPU pool {p.label}: release {names} deploys a GPUCluster, whose operator runs the DRA kubelet plugin "
                f"on every NVIDIA node NFD labels ({LABEL_DEPLOY_DRA_DRIVER}=true unless set), and this pool "
                "advertises its GPUs by a device plugin, so both would hand out the same GPUs. Make it a DRA pool "
                f"(advertise: dra), or label its nodes {LABEL_DEPLOY_DRA_DRIVER}=false at creation (a gpuready pool: "
                f"labels: {{{LABEL_DEPLOY_DRA_DRIVER}: 'false'}})",
            )
        )
    return findings
