"""Helm values of the GPU Operator chart (v26.7.0) for its experimental GPUCluster stack (``gpu-operator-dra``). Pure.

Facts (chart archive ``gpu-operator-v26.7.0.tgz`` and NVIDIA/gpu-operator at tag ``v26.7.0``):

- ``gpuCluster.deployCR: true`` with ``clusterPolicy.deployCR: false``: the chart renders the singleton
  ``GPUCluster`` ``gpu-cluster`` instead of the ClusterPolicy, and fails when both are true
  (``templates/validations.yaml`` L1-3); the operator refuses to label nodes while both CRs exist
  (``controllers/nodelabeling_controller.go``).
- ``driver.enabled: false``: the GPUCluster installs no driver itself, only through NVIDIADriver CRs, which the
  chart insists on when the driver is on (``validations.yaml`` L5-7); gpuready's DRA pools have the image's driver
  (``ownership``), so the driver stays off and no NVIDIADriver CR is made.
- ``daemonsets.tolerations``: the GPUCluster passes ``daemonsets`` whole to every operand DaemonSet
  (``templates/gpucluster.yaml``; the DRA kubelet plugin's ``tolerations`` come from ``.Daemonsets.Tolerations`` in
  ``manifests/state-dra-driver/0500_daemonset.yaml``), so they tolerate every pool taint.
- The DRA kubelet plugin's scheduling is "opinionated and not configurable" (values.yaml ``draDriver``): it runs on
  nodes the operator labels ``nvidia.com/gpu.deploy.dra-driver=true``, which it does to every node whose NFD labels
  show an NVIDIA GPU unless the label is already set (``updateGPUClusterStateLabels`` in
  ``controllers/nodelabeling_controller.go``). So this release's NFD worker runs on the stack's DRA pools only
  (``gpuready.io/advertise=dra``): the operator then finds no other GPU node through it.
- ``draDriver.computeDomains.enabled: false``: on by default (values.yaml L603-604); ComputeDomains hand out
  multi-node NVLink, which no pool gpuready offers has (as ``dra_values``).
- ``operator.upgradeCRD: true``, as for the ClusterPolicy stack: Helm never upgrades ``crds/``.
- Workloads claim alike under either DRA stack: the operator makes the DeviceClasses ``gpu.nvidia.com`` and
  ``mig.nvidia.com`` with the DRA chart's selectors (driver ``gpu.nvidia.com``, attribute ``type`` ``gpu`` / ``mig``:
  ``manifests/state-dra-driver/0400_deviceclass-gpu.yaml``, ``0410_deviceclass-mig.yaml``).

Lifecycle (``release_note``): the GPUCluster carries ``helm.sh/resource-policy: keep`` (``templates/gpucluster.yaml``),
so an upgrade back to the ClusterPolicy leaves it in place, and the operator labels no node while both CRs exist;
only an uninstall removes it, through the chart's pre-delete hook (``templates/cleanup_gpucluster.yaml``, which waits
while the operator drains the operands that hold ResourceClaims).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.gpu_stack import placement
from gpuready.core.gpu_stack.charts import GPU_OPERATOR_DRA, gpu_cluster_deployed
from gpuready.core.gpu_stack.kind import StackSettings
from gpuready.core.gpu_stack.operator_values import monitoring_values, nfd_values
from gpuready.core.scheduling import LABEL_ADVERTISE
from gpuready.core.specs import GpuPoolSpec

GPU_CLUSTER_NAME = "gpu-cluster"
"""The GPUCluster the chart makes (``gpu-operator.gpucluster-name`` in ``_helpers.tpl``; the CRD's rule makes it a
singleton of this name)."""


def gpu_cluster_values(pools: Sequence[GpuPoolSpec], spec: StackSettings) -> dict[str, Any]:
    """The values for one GPU Operator release whose GPUCluster serves ``pools`` (all DRA pools with the image's
    driver, checked by ``stack_rules``)."""
    tolerations = placement.taint_tolerations(pools)
    selector = {**placement.nfd_node_selector(), LABEL_ADVERTISE: DYNAMIC_RESOURCES.pool_value}
    values: dict[str, Any] = {
        "clusterPolicy": {"deployCR": False},
        "gpuCluster": {"deployCR": True},
        "driver": {"enabled": False},
        "operator": {"upgradeCRD": True},
        "daemonsets": {"tolerations": tolerations},
        **nfd_values(spec, tolerations, selector),
        "draDriver": {"computeDomains": {"enabled": False}},
    }
    values.update(monitoring_values(spec))
    return values


def deploys_gpu_cluster(chart: str, values: Mapping[str, Any]) -> bool:
    """Whether a planned release of ``chart`` with ``values`` deploys the GPUCluster."""
    return chart == GPU_OPERATOR_DRA.name and gpu_cluster_deployed(values)


def release_note(chart: str, values: Mapping[str, Any]) -> str | None:
    """What a plan says about a release of ``chart`` with ``values`` that deploys the GPUCluster (None otherwise)."""
    if not deploys_gpu_cluster(chart, values):
        return None
    status = "experimental" if GPU_OPERATOR_DRA.experimental else "stable"
    return (
        f"GPUCluster {GPU_CLUSTER_NAME!r} ({status} in GPU Operator {GPU_OPERATOR_DRA.version}): NVIDIA's "
        "DRA driver, DCGM exporter and DRA validator on the DRA pools; no ClusterPolicy, device plugin, GFD or "
        "MIG manager. It outlives a switch back to gpuStack kind gpu-operator (helm.sh/resource-policy: keep), "
        "and the operator labels no node while both CRs exist: before switching, run kubectl delete "
        f"gpuclusters.nvidia.com {GPU_CLUSTER_NAME} (the operator drains its operands first). Uninstalling the "
        "release deletes it (the chart's pre-delete hook)"
    )
