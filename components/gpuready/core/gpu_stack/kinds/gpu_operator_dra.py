"""``gpu-operator-dra``: the GPU Operator chart (v26.7.0)'s experimental GPUCluster stack and its values. Pure.

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
  multi-node NVLink, which no pool gpuready offers has (as ``kinds.dra_driver``).
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
from gpuready.core.clouds.fit_rows import FitRow
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack import owned_values as ov
from gpuready.core.gpu_stack import placement, stack_objects
from gpuready.core.gpu_stack.charts import DRA_ADVERTISER, Chart, gpu_cluster_deployed
from gpuready.core.gpu_stack.kind import PROVIDER_HINT, GpuStackKind, StackSettings, lacks
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR
from gpuready.core.gpu_stack.operator_values import monitoring_values, nfd_values
from gpuready.core.gpu_stack.stack_fits import DRA_HINT, DRA_HINT_CLOUD
from gpuready.core.scheduling import LABEL_ADVERTISE
from gpuready.core.specs import GpuPoolSpec

_GPU_CLUSTER = "gpuStack.kind gpu-operator-dra: the GPUCluster CR, never the ClusterPolicy (only one may exist)"
_DRA_NFD_PLACEMENT = (
    "NFD runs on the stack's DRA pools only: the operator puts the GPUCluster's DRA plugin on every node NFD shows "
    "an NVIDIA GPU on"
)
_CLUSTER_POLICY_ONLY = (
    "toolkit",
    "devicePlugin",
    "gfd",
    "migManager",
    "mig",
    "nodeStatusExporter",
    "gds",
    "gdrcopy",
    "vgpuManager",
    "vgpuDeviceManager",
    "vfioManager",
    "sandboxDevicePlugin",
    "sandboxWorkloads",
    "kataSandboxDevicePlugin",
    "ccManager",
    "kataManager",
    "psa",
    "cdi",
)
"""Top-level sections of the v26.7.0 values read only for the ClusterPolicy (``templates/clusterpolicy.yaml``, and the
config maps and checks that serve it: ``plugin_config.yaml``, ``mig_config.yaml``, ``validations.yaml``). Not
``validator``: ``operator.yaml`` passes its image to the operator, whose DRA operands use it."""
_GPU_CLUSTER_STATES = "GPU Operator v26.7.0 newGPUClusterStates: DRA driver, DCGM, DCGM exporter, DRA validator"

GPU_OPERATOR_DRA = Chart(
    kind="gpu-operator-dra",
    name=GPU_OPERATOR.name,
    version=GPU_OPERATOR.version,
    repository=GPU_OPERATOR.repository,
    namespace=GPU_OPERATOR.namespace,
    nfd_key=GPU_OPERATOR.nfd_key,
    version_prefix=GPU_OPERATOR.version_prefix,
    advertiser=DRA_ADVERTISER,
    disable_openapi_validation=True,
    cluster_apis=("resource.k8s.io/v1/DeviceClass",),
    experimental=True,
    owned=(
        ov.Owned("clusterPolicy.deployCR", _GPU_CLUSTER),
        ov.Owned("gpuCluster.deployCR", _GPU_CLUSTER),
        ov.Owned("driver.enabled", ov.DRIVER),
        ov.Owned("driver.nvidiaDriverCRD", ov.DRIVER),
        ov.Owned("operator.upgradeCRD", ov.CRD_UPGRADE),
        ov.Owned("daemonsets.tolerations", ov.TAINTS),
        ov.Owned("nfd.enabled", "gpuStack.nfd"),
        ov.Owned("node-feature-discovery.worker.nodeSelector", _DRA_NFD_PLACEMENT),
        ov.Owned("node-feature-discovery.worker.affinity", _DRA_NFD_PLACEMENT),
        ov.Owned("node-feature-discovery.worker.tolerations", ov.TAINTS),
        ov.Owned("draDriver.computeDomains.enabled", ov.COMPUTE_DOMAINS),
        ov.Owned("dcgmExporter.serviceMonitor.enabled", ov.MONITORING),
        ov.Owned("dcgmExporter.enabled", ov.MONITORING_EXPORTER, always=False),
    ),
    inert=(
        _CLUSTER_POLICY_ONLY,
        "only the ClusterPolicy reads it, and gpu-operator-dra deploys the GPUCluster instead (GPU Operator v26.7.0 "
        "templates/gpucluster.yaml)",
    ),
    free_form=("node-feature-discovery.worker.nodeSelector", "draDriver.featureGates"),
)
"""The GPU Operator chart's GPUCluster stack (``gpuCluster.deployCR=true``, ``clusterPolicy.deployCR=false``),
"experimental" in v26.7.0 (SOURCES.md; ``values.yaml`` L565-576): the operator runs NVIDIA's DRA driver (image
v0.5.0), DCGM, the DCGM exporter and a DRA validator (``newGPUClusterStates`` in ``internal/state/manager.go``),
and no device plugin, GFD, MIG manager or container toolkit. Its ``templates/validations.yaml`` (L25-29) fails
unless the cluster serves a ``resource.k8s.io`` DeviceClass API."""

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


def gpu_cluster_release(
    profile: CloudProfile,
    pools: Sequence[GpuPoolSpec],
    settings: StackSettings,
    objects: list[stack_objects.ReleaseObject],
) -> dict[str, Any]:
    """The GPU Operator chart's GPUCluster values (no config maps)."""
    return gpu_cluster_values(pools, settings)


_EXPERIMENTAL = " (experimental)" if GPU_OPERATOR_DRA.experimental else ""

GPU_OPERATOR_DRA_STACK = GpuStackKind(
    key="gpu-operator-dra",
    chart=GPU_OPERATOR_DRA,
    serves=GPU_OPERATOR_DRA.advertiser,
    nfd_without_gfd=True,
    refused=lacks(
        gfd=f"the GPUCluster stack runs no GPU Feature Discovery ({_GPU_CLUSTER_STATES})",
        migReboot=f"the GPUCluster stack runs no MIG manager ({_GPU_CLUSTER_STATES})",
    ),
    mig_note=" (its GPUCluster runs no MIG manager)",
    plugin_note=", and the GPU Operator's GPUCluster runs no device plugin (no ClusterPolicy)",
    nvidia_fits={
        "cloud": FitRow(
            ok=True,
            summary=f"GPU Operator's GPUCluster{_EXPERIMENTAL}: DRA driver, DCGM exporter, DRA validator; NVIDIA "
            "driver from the {image} image",
        ),
        "operator": FitRow(
            ok=False,
            summary="the GPUCluster stack installs no container toolkit (GPU Operator v26.7.0 newGPUClusterStates), "
            "gpuready does not drive its NVIDIADriver CRD, and this pool's cloud installs none (driver: operator)",
            hint=DRA_HINT,
            hint_cloud_driver=DRA_HINT_CLOUD,
        ),
    },
    values=gpu_cluster_release,
    plan_note=release_note,
    component=ReleaseEntry(
        name="GpuOperatorDra",
        module="gpuready.gpu_stack.gpu_operator_dra",
        description="The GPU Operator chart's experimental GPUCluster stack (NVIDIA's DRA driver, DCGM exporter, DRA "
        "validator) on gpuready's DRA pools (advertise: dra; gpuready:gpuStack with kind gpu-operator-dra; "
        "Kubernetes 1.34+). " + PROVIDER_HINT,
        skip=frozenset({"kind", "gfd", "migReboot"}),
    ),
)
