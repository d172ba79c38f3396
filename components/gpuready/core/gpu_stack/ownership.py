"""Who owns the driver, the container toolkit and the device plugin on a pool, for each GPU stack. Pure.

One table (``stack_fits``: platform plugin x kind x driver owner; a platform's own plugin's rows are in its cloud's
package, ``NodeSetup.platform_fits``), one function: ``fit(profile, image, driver, kind)`` says whether a pool of
that platform can be served by that stack and what the GPU Operator must (not) install there. The README's support
matrix is generated from it. Sources (shared reference nvidia.md section 7, clouds.md section 1.4):

- EKS AL2023 NVIDIA AMIs ship the driver and the container toolkit but no device plugin: device-plugin chart,
  or the GPU Operator with ``driver.enabled=false`` and ``toolkit.enabled=false`` (EKS user guide
  ``ml-eks-optimized-ami.adoc``). The operator has no Amazon Linux driver containers (NVIDIA/gpu-operator#686).
- EKS Bottlerocket NVIDIA ships driver, toolkit and its own device plugin: no second plugin; the operator only
  with those operands off on its nodes (``nvidia.com/gpu.deploy.*=false``, set at pool creation).
- AKS installs driver and toolkit unless the pool says ``gpuProfile.driver=None``: then the operator must
  (learn.microsoft.com ``nvidia-gpu-operator``; cloud-native-docs ``microsoft-aks.rst``).
- GKE installs the driver and runs its own device plugin unless driver installation is disabled; NVIDIA's
  stack only on pools with installation disabled, labelled ``gke-no-default-nvidia-gpu-device-plugin=true``,
  on Ubuntu (cloud-native-docs ``google-gke.rst``).

The provisioner can decide it before the image does (``Provisioner.platform_advertiser``); the elastic ones:

- EKS Karpenter: the image's (the ``al2023@<version>`` / ``bottlerocket@<version>`` aliases resolve to the NVIDIA
  variants), as for a node group.
- EKS Auto Mode "includes the drivers and device plugins required" for NVIDIA instances, and its NVIDIA device
  plugin "runs automatically and isn't visible as a daemon set" (Amazon EKS User Guide, "Deploy an accelerated
  workload", https://docs.aws.amazon.com/eks/latest/userguide/auto-accelerated.html): no second plugin or driver;
  the GPU Operator only with its driver, toolkit, device-plugin and MIG-manager operands off on those nodes
  (``nvidia.com/gpu.deploy.*=false`` in the NodePool template, as on Bottlerocket).
- AKS NAP: the AKSNodeClass ``gpu.mode`` ``Driver`` (default) has AKS install the driver, ``None`` skips it "when
  managing GPU drivers via a GPU Operator" (Azure/karpenter-provider-azure v1.14.2
  ``pkg/apis/crds/karpenter.azure.com_aksnodeclasses.yaml``); no device plugin comes with either (the provider's own
  GPU end-to-end suite deploys NVIDIA's DaemonSet: ``test/suites/gpu``, Azure/karpenter-provider-azure#1880). So
  a NAP pool is owned exactly as an agent pool with the same ``driver``.
- GKE ComputeClass: ``priorities[].gpu.driverVersion`` is ``default`` or ``latest`` only (crds-catalog
  ``cloud.google.com/computeclass_v1.json``), so GKE always installs the driver and runs its device plugin on the
  pools it creates: the GKE-managed row (``capacity`` refuses ``driver: operator`` there).
- NVIDIA's DRA driver chart (``dra-driver-nvidia-gpu`` 0.4.0) installs no driver (its kubelet plugin mounts the
  host's, ``nvidiaDriverRoot: /`` in its values.yaml): a DRA pool needs a driver the cloud's image installs
  (EKS AL2023 NVIDIA, AKS with its driver). Platforms whose own device plugin runs (GKE with its driver,
  Bottlerocket) cannot take it, since the DRA GPU plugin and a device plugin never share a node (the chart's
  ``templates/validation.yaml``); a pool whose driver the GPU Operator would install is not offered with DRA yet.
- The GPU Operator's GPUCluster stack (``gpu-operator-dra``) "does not manage the NVIDIA driver or the
  device-plugin; the driver is installed separately (host-installed or via an NVIDIADriver CR)"
  (``api/nvidia/v1alpha1/gpucluster_types.go`` at v26.7.0), and runs no container toolkit: the same pools as the
  DRA driver chart (the image's driver and toolkit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.clouds.node_setup import PlatformAdvertiser
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.stack_fits import rows
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.node_setup import NodeSetup
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.specs import GpuPoolSpec

PlatformPlugin = PlatformAdvertiser
"""The device plugin that comes with a pool's platform (``nvidia``: none does, NVIDIA's serves). Not an
``Advertiser`` (``gpuready.core.advertisers``: how the GPUs reach the scheduler): a platform's own plugin."""


@record(frozen=True, kw_only=True, slots=True)
class Fit:
    """Whether a stack can serve a pool's platform, and how."""

    ok: bool
    summary: str
    """How the stack serves the pool (when ``ok``), or why it cannot."""
    hint: str = ""
    """What to change when it cannot."""
    operator_driver: bool = False
    """The GPU Operator installs the driver and container toolkit on these nodes."""


def platform_plugin(profile: CloudProfile, image: str, driver: str, provisioner: str | None = None) -> PlatformPlugin:
    """The device plugin that comes with the platform, or ``nvidia`` when none does: the provisioner's when it has
    one (``provisioner`` None: the cloud's default, its profile's first), else the cloud profile's for the image
    and driver owner."""
    made_by = profile.provisioners[provisioner or next(iter(profile.provisioners))]
    return made_by.platform_advertiser or profile.platform_advertiser(image, driver)


def pool_fit(pool: GpuPoolSpec, kind: GpuStackKind) -> Fit:
    """``fit`` of a pool's platform (its resolved platform plugin, image and driver owner)."""
    return _fit(pool.profile, pool.resolved.platform_plugin, pool.resolved.image, pool.driver, kind)


def fit(profile: CloudProfile, image: str, driver: str, kind: GpuStackKind, provisioner: str | None = None) -> Fit:
    """Whether a pool on ``profile``'s cloud with node ``image`` whose driver ``driver`` installs, made by
    ``provisioner`` (None: the cloud's default), fits stack ``kind``: the row of ``stack_fits.rows`` for the platform's
    plugin."""
    return _fit(profile, platform_plugin(profile, image, driver, provisioner), image, driver, kind)


def _fit(profile: NodeSetup, plugin: PlatformPlugin, image: str, driver: str, kind: GpuStackKind) -> Fit:
    row = rows(profile.platform_fits, plugin, kind)["cloud" if driver == "cloud" else "operator"]
    hint = row.hint_cloud_driver if row.hint_cloud_driver and profile.cloud_driver_serves_nvidia_plugin else row.hint
    return Fit(
        ok=row.ok, summary=row.summary.format(image=profile.image_name(image)), hint=hint,
        operator_driver=row.operator_driver,
    )  # fmt: skip
