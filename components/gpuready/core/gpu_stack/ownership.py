"""Who owns the driver, the container toolkit and the device plugin on a pool, for each GPU stack. Pure.

One table, one function: ``fit(cloud, image, driver, kind)`` says whether a pool of that platform can be
served by that stack and what the GPU Operator must (not) install there. The README's support matrix is
generated from it. Sources (shared reference nvidia.md section 7, clouds.md section 1.4):

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

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gpuready.core.capacity.registry import default_provisioner, provisioner_named
from gpuready.core.clouds.profile import CloudProfile, PlatformAdvertiser
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.gpu_stack.charts import GPU_OPERATOR_DRA, StackKind, serves_dra

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

Advertiser = PlatformAdvertiser


@dataclass(frozen=True, kw_only=True, slots=True)
class Fit:
    """Whether a stack can serve a pool's platform, and how."""

    ok: bool
    summary: str
    """How the stack serves the pool (when ``ok``), or why it cannot."""
    hint: str = ""
    """What to change when it cannot."""
    operator_driver: bool = False
    """The GPU Operator installs the driver and container toolkit on these nodes."""


def advertiser(cloud: Cloud, image: str, driver: str, provisioner: str | None = None) -> Advertiser:
    """The device plugin that comes with the platform, or ``nvidia`` when none does: the provisioner's when it has
    one (``provisioner`` None: the cloud's default), else the cloud profile's for the image and driver owner."""
    made_by = provisioner_named(cloud, provisioner or default_provisioner(cloud))
    return made_by.platform_advertiser or cloud_profile(cloud).platform_advertiser(image, driver)


def pool_fit(pool: GpuPoolSpec, kind: StackKind) -> Fit:
    """``fit`` of a pool's platform (its resolved platform plugin, image and driver owner)."""
    return _fit(pool.profile, pool.resolved.platform_plugin, pool.resolved.image, pool.driver, kind)


def fit(cloud: Cloud, image: str, driver: str, kind: StackKind, provisioner: str | None = None) -> Fit:
    """Whether a pool on ``cloud`` with node ``image`` whose driver ``driver`` installs, made by ``provisioner``
    (None: the cloud's default), fits stack ``kind``."""
    return _fit(cloud_profile(cloud), advertiser(cloud, image, driver, provisioner), image, driver, kind)


def _fit(profile: CloudProfile, own: Advertiser, image: str, driver: str, kind: StackKind) -> Fit:
    if own == "gke-device-plugin":
        return _gke_managed(kind)
    if own == "bottlerocket":
        return _bottlerocket(kind)
    if own == "eks-auto-mode":
        return _eks_auto_mode(kind)
    preinstalled = driver == "cloud"
    if kind == "none":
        why = (
            f"the {profile.image_name(image)} image has the driver but no device plugin"
            if preinstalled
            else "nothing installs the driver or a device plugin on this pool"
        )
        way = "gpu-operator or device-plugin" if preinstalled else "gpu-operator, which installs the driver"
        return Fit(ok=False, summary=why, hint=f"set gpuStack.kind to {way}")
    if kind == "external":
        return Fit(ok=True, summary="your NVIDIA stack" + ("" if preinstalled else " (it must install the driver)"))
    if serves_dra(kind):
        return _dra(profile, image, kind, preinstalled)
    if kind == "device-plugin":
        if preinstalled:
            return Fit(ok=True, summary=f"device plugin; driver and toolkit from the {profile.image_name(image)} image")
        return Fit(
            ok=False,
            summary="the device-plugin chart installs no driver and this pool's cloud installs none (driver: operator)",
            hint="use gpuStack.kind gpu-operator"
            + (", or set the pool's driver: cloud" if profile.cloud_driver_serves_nvidia_plugin else ""),
        )
    if preinstalled:
        return Fit(ok=True, summary=f"GPU Operator; driver and toolkit from the {profile.image_name(image)} image")
    return Fit(ok=True, summary="GPU Operator installs driver and toolkit", operator_driver=True)


def _dra(profile: CloudProfile, image: str, kind: StackKind, preinstalled: bool) -> Fit:
    if preinstalled:
        experimental = " (experimental)" if GPU_OPERATOR_DRA.experimental else ""
        summary = (
            "DRA driver"
            if kind == "dra-driver"
            else f"GPU Operator's GPUCluster{experimental}: DRA driver, DCGM exporter, DRA validator"
        )
        return Fit(ok=True, summary=f"{summary}; NVIDIA driver from the {profile.image_name(image)} image")
    lacks = (
        "the DRA driver chart installs no NVIDIA driver"
        if kind == "dra-driver"
        else "the GPUCluster stack installs no container toolkit (GPU Operator v26.7.0 newGPUClusterStates), "
        "gpuready does not drive its NVIDIADriver CRD,"
    )
    return Fit(
        ok=False,
        summary=f"{lacks} and this pool's cloud installs none (driver: operator)",
        hint=(
            "set the pool's driver: cloud"
            if profile.cloud_driver_serves_nvidia_plugin
            else "use advertise: device-plugin under gpuStack.kind gpu-operator"
        )
        + " (the GPU Operator as the driver installer beside the DRA driver is not offered yet)",
    )


def _gke_managed(kind: StackKind) -> Fit:
    if kind == "none":
        return Fit(ok=True, summary="GKE's driver and device plugin (sharing and MIG on the node pool)")
    return Fit(
        ok=False,
        summary="GKE installs the driver and runs its own device plugin on this pool, so NVIDIA's would fight it",
        hint="set gpuStack.kind none, or give the pool driver: operator and image: ubuntu (GKE driver installation "
        "disabled, on a node pool: a ComputeClass always has GKE install the driver) for NVIDIA's stack; the "
        "operator over Google's driver installer is not offered (docs/gpu-stack.md, 'GKE and the GPU Operator')",
    )


def _bottlerocket(kind: StackKind) -> Fit:
    if kind == "none":
        return Fit(ok=True, summary="Bottlerocket's driver, toolkit and device plugin")
    if serves_dra(kind):
        return Fit(
            ok=False,
            summary="Bottlerocket NVIDIA runs its own device plugin, which must not share a node with the DRA GPU "
            "plugin (DRA chart templates/validation.yaml)",
            hint="use image: al2023 for a DRA pool",
        )
    if kind == "gpu-operator":
        return Fit(
            ok=True,
            summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit, device plugin and MIG "
            "manager stay Bottlerocket's (nvidia.com/gpu.deploy.*=false on the nodes)",
        )
    return Fit(
        ok=False,
        summary="Bottlerocket NVIDIA runs its own device plugin, so a second one would advertise the GPUs twice",
        hint="use gpuStack.kind none or gpu-operator (which leaves Bottlerocket's plugin alone), or image: al2023",
    )


def _eks_auto_mode(kind: StackKind) -> Fit:
    if kind == "none":
        return Fit(ok=True, summary="EKS Auto Mode's driver and device plugin (AWS-managed, not a DaemonSet)")
    if kind == "gpu-operator":
        return Fit(
            ok=True,
            summary="GPU Operator for GFD, DCGM exporter and validation; driver, toolkit and device plugin stay EKS "
            "Auto Mode's (nvidia.com/gpu.deploy.*=false on the nodes)",
        )
    return Fit(
        ok=False,
        summary="EKS Auto Mode runs its own NVIDIA driver and device plugin (not a DaemonSet), so a second plugin "
        "would advertise the GPUs twice",
        hint="use gpuStack.kind none or gpu-operator (which leaves Auto Mode's plugin alone), or provisioner: "
        "karpenter for NVIDIA's device plugin",
    )
