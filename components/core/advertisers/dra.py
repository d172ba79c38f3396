"""GPUs handed out by Dynamic Resource Allocation through NVIDIA's DRA driver for GPUs. Pure.

Facts (chart ``dra-driver-nvidia-gpu`` 0.4.0, ``../shared/reference/upstream/charts/``): the driver publishes
its devices in ResourceSlices under the driver name ``gpu.nvidia.com`` and the chart creates the DeviceClasses
``gpu.nvidia.com`` (whole GPUs, ``templates/deviceclass-gpu.yaml``) and ``mig.nvidia.com`` (MIG devices,
``templates/deviceclass-mig.yaml``). A DRA node advertises no ``nvidia.com/gpu`` extended resource: a pod asks
for devices through a ResourceClaim, here one made per pod from a ResourceClaimTemplate
(``resource.k8s.io/v1``, GA in Kubernetes 1.34; kubernetes.io "Dynamic Resource Allocation"), and each
container that uses them names the claim in ``resources.claims``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from components.core import sharing_plan
from components.core.advertisers.interface import Advertiser, GpuRequest
from components.core.node_names import LABEL_ADVERTISE, LABEL_DEPLOY_PREFIX
from components.core.pool_parts import MigPartitioning
from components.errors import Problem, SpecError

if TYPE_CHECKING:
    from components.core.specs import GpuPoolSpec

DRIVER_NAME = "gpu.nvidia.com"
"""The driver name in the ResourceSlices the DRA driver publishes (and its DeviceClasses' CEL selectors)."""
GPU_DEVICE_CLASS = "gpu.nvidia.com"
"""DeviceClass of whole GPUs."""
MIG_DEVICE_CLASS = "mig.nvidia.com"
"""DeviceClass of MIG devices."""
RESOURCE_API_VERSION = "resource.k8s.io/v1"
"""The DRA API gpuready emits (GA in Kubernetes 1.34)."""
CLAIM_NAME = "gpus"
"""The name of the pod's claim and of the one device request in it."""


class DynamicResources(Advertiser):
    """Devices of the DeviceClasses ``gpu.nvidia.com`` and ``mig.nvidia.com``, claimed per pod."""

    key: ClassVar[str] = "dra"
    pool_value: ClassVar[str] = "dra"

    def allocatable_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """No extended resource: the node's devices are in its ResourceSlices (``devices_per_node``)."""
        return {}

    def devices_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """DeviceClass -> devices each node of the pool publishes."""
        sharing = spec.sharing
        if isinstance(sharing, MigPartitioning):
            table = spec.resolved.model.mig
            if table is None:
                raise ValueError(f"pool {spec.name!r}: MIG on a GPU without MIG passed validation")
            layout = sharing_plan.mig_layout(table, sharing)
            return {MIG_DEVICE_CLASS: spec.resolved.gpus * sum(layout.values())}
        return {GPU_DEVICE_CLASS: spec.resolved.gpus}

    def resource_names(self, spec: GpuPoolSpec) -> list[str]:
        """The DeviceClasses a workload claims on this pool."""
        return sorted(self.devices_per_node(spec))

    def request(self, spec: GpuPoolSpec, gpus: object, resource: str | None) -> GpuRequest:
        devices = self.devices_per_node(spec)
        name = resource if resource is not None else self.primary_resource(spec)
        problems: list[Problem] = []
        if name not in devices:
            problems.append(
                Problem(
                    "resource",
                    f"pool {spec.name!r} hands out no devices of this DeviceClass",
                    name,
                    sorted(devices),
                    "claim the pool's DeviceClass",
                )
            )
        valid_count = isinstance(gpus, int) and not isinstance(gpus, bool) and gpus >= 1
        if not valid_count:
            problems.append(Problem("gpus", "must be a whole number of devices, at least 1", gpus, (), "e.g. gpus: 1"))
        elif name in devices and isinstance(gpus, int) and gpus > devices[name]:
            problems.append(
                Problem(
                    "gpus",
                    f"no node of pool {spec.name!r} has that many: each publishes {devices[name]} {name} devices",
                    gpus,
                    (),
                    f"claim at most {devices[name]}, or split the work across pods",
                )
            )
        if problems or not isinstance(gpus, int):
            raise SpecError(problems)
        return GpuRequest(resource=name, count=gpus)

    def container_resources(self, request: GpuRequest) -> dict[str, Any]:
        return {"claims": [{"name": CLAIM_NAME}]}

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """``gpuready.io/advertise=dra`` (the DRA kubelet plugin's node affinity) and the GPU Operator's device
        plugin opt-out (``nvidia.com/gpu.deploy.device-plugin=false``): no device plugin serves a DRA node."""
        return {LABEL_ADVERTISE: self.pool_value, f"{LABEL_DEPLOY_PREFIX}device-plugin": "false"}

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """Time-slicing and MPS are device-plugin settings (gpuready's plugin config map); the DRA driver shares a
        GPU per claim instead (the claim's opaque config; MPS behind the driver's ``MPSSupport`` feature gate, GPU
        Operator v26.7.0 values.yaml ``draDriver.featureGates``), which gpuready does not write: refused rather
        than silently ignored."""
        sharing = spec.sharing
        if sharing is None or isinstance(sharing, MigPartitioning):
            return []
        return [
            Problem(
                "sharing.mode",
                "a DRA pool is not shared by the device plugin's time-slicing or MPS (no device plugin runs there); "
                "the DRA driver shares a GPU per ResourceClaim",
                sharing.mode,
                ("mig",),
                "drop sharing and let containers share one claim (the workload helper's shared claims), or use "
                "advertise: device-plugin for a time-sliced or MPS pool",
            )
        ]

    def pod_fields(self, request: GpuRequest) -> dict[str, Any]:
        return {"resourceClaims": [{"name": CLAIM_NAME, "resourceClaimTemplateName": claim_template_name(request)}]}

    def is_gpu_resource(self, name: str) -> bool:
        """DRA devices are not node resources."""
        return False

    def shows_partitions(self, capacity: Mapping[str, int]) -> bool:
        return False

    def inferred_allocatable(
        self,
        capacity: Mapping[str, int],
        gpus: int | None,
        replicas: int | None,
        *,
        mig: bool,
        renamed: bool | None = None,
        mig_layout: Mapping[str, int] | None = None,
        mig_strategy: str = "single",
    ) -> dict[str, int]:
        """A DRA node advertises no extended GPU resource."""
        return {}


def claim_template_name(request: GpuRequest) -> str:
    """The ResourceClaimTemplate a pod with ``request`` claims from, e.g. ``gpuready-gpu-2``."""
    return f"gpuready-{request.resource.split('.', 1)[0]}-{request.count}"


def claim_template(request: GpuRequest, namespace: str) -> dict[str, Any]:
    """The ResourceClaimTemplate for ``request`` in ``namespace``: one request of ``count`` devices."""
    exactly = {"deviceClassName": request.resource, "allocationMode": "ExactCount", "count": request.count}
    return {
        "apiVersion": RESOURCE_API_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": claim_template_name(request), "namespace": namespace},
        "spec": {"spec": {"devices": {"requests": [{"name": CLAIM_NAME, "exactly": exactly}]}}},
    }


DYNAMIC_RESOURCES = DynamicResources()
"""The one instance (advertisers hold no state)."""
