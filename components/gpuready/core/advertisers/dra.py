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

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from gpuready.core import sharing_plan
from gpuready.core.advertisers import dra_requests
from gpuready.core.advertisers.device_selectors import DRIVER_DOMAIN, mig_profile_selector
from gpuready.core.advertisers.interface import Advertiser, GpuRequest
from gpuready.core.node_names import LABEL_ADVERTISE, LABEL_DEPLOY_DRA_DRIVER, LABEL_DEPLOY_PREFIX
from gpuready.core.pool_parts import MigPartitioning
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

DRIVER_NAME = DRIVER_DOMAIN
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

    slice_driver: ClassVar[str | None] = DRIVER_NAME
    key: ClassVar[str] = "dra"
    pool_value: ClassVar[str] = "dra"

    def allocatable_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """No extended resource: the node's devices are in its ResourceSlices (``devices_per_node``)."""
        return {}

    def devices_per_node(self, spec: GpuPoolSpec) -> dict[str, int]:
        """DeviceClass -> devices each node of the pool publishes."""
        sharing = spec.sharing
        if isinstance(sharing, MigPartitioning):
            table = spec.resolved.gpu.model.mig
            if table is None:
                raise ValueError(f"pool {spec.name!r}: MIG on a GPU without MIG passed validation")
            layout = sharing_plan.mig_layout(table, sharing)
            return {MIG_DEVICE_CLASS: spec.resolved.gpu.gpus * sum(layout.values())}
        return {GPU_DEVICE_CLASS: spec.resolved.gpu.gpus}

    def resource_names(self, spec: GpuPoolSpec) -> list[str]:
        """The DeviceClasses a workload claims on this pool."""
        return sorted(self.devices_per_node(spec))

    def request(
        self,
        spec: GpuPoolSpec,
        gpus: object,
        resource: str | None,
        *,
        mig_profile: str | None = None,
        selectors: Sequence[object] = (),
    ) -> GpuRequest:
        name = resource if resource is not None else self.primary_resource(spec)
        devices = self.devices_per_node(spec)
        return dra_requests.claim_request(
            spec, devices, name, gpus, mig_profile=mig_profile, selectors=selectors, mig_class=MIG_DEVICE_CLASS
        )

    def container_resources(self, request: GpuRequest) -> dict[str, Any]:
        return {"claims": [{"name": CLAIM_NAME}]}

    def node_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        """``gpuready.io/advertise=dra`` (the DRA kubelet plugin's node affinity) and the GPU Operator's device
        plugin opt-out (``nvidia.com/gpu.deploy.device-plugin=false``): no device plugin serves a DRA node."""
        return {LABEL_ADVERTISE: self.pool_value, f"{LABEL_DEPLOY_PREFIX}device-plugin": "false"}

    def spec_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        """The GPUCluster opt-out label (``nvidia.com/gpu.deploy.dra-driver=false``) would keep the DRA plugin off the
        pool. Time-slicing and MPS are device-plugin settings (gpuready's plugin config map); the DRA driver shares a
        GPU per claim instead (the claim's opaque config; MPS behind the driver's ``MPSSupport`` feature gate, GPU
        Operator v26.7.0 values.yaml ``draDriver.featureGates``), which gpuready does not write: refused rather
        than silently ignored."""
        problems: list[Problem] = []
        if LABEL_DEPLOY_DRA_DRIVER in spec.labels:
            problems.append(
                Problem(
                    f"labels[{LABEL_DEPLOY_DRA_DRIVER!r}]",
                    "keeps the GPU Operator's GPUCluster DRA plugin off the pool, which a DRA pool needs",
                    spec.labels[LABEL_DEPLOY_DRA_DRIVER],
                    (),
                    "remove it (only device-plugin pools opt out of the GPUCluster's DRA plugin)",
                )
            )
        sharing = spec.sharing
        if sharing is None or isinstance(sharing, MigPartitioning):
            return problems
        return [
            *problems,
            Problem(
                "sharing.mode",
                "a DRA pool is not shared by the device plugin's time-slicing or MPS (no device plugin runs there); "
                "the DRA driver shares a GPU per ResourceClaim",
                sharing.mode,
                ("mig",),
                "drop sharing and let containers share one claim (the workload helper's shared claims), or use "
                "advertise: device-plugin for a time-sliced or MPS pool",
            ),
        ]

    def pod_fields(self, request: GpuRequest) -> dict[str, Any]:
        return {"resourceClaims": [{"name": CLAIM_NAME, "resourceClaimTemplateName": claim_template_name(request)}]}

    def workload_objects(self, request: GpuRequest, namespace: str) -> list[dict[str, Any]]:
        """The ResourceClaimTemplate the pods claim from, in their namespace."""
        return [claim_template(request, namespace)]

    def serves_device_class(self, name: str) -> bool:
        return name in {GPU_DEVICE_CLASS, MIG_DEVICE_CLASS}

    def serves_node_labels(self, labels: Mapping[str, str]) -> bool:
        """gpuready marks a DRA pool's nodes ``gpuready.io/advertise=dra`` (``scheduling.pool_labels``)."""
        return labels.get(LABEL_ADVERTISE) == self.pool_value

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
    """The ResourceClaimTemplate a pod with ``request`` claims from: the same for the same request, e.g.
    ``gpuready-gpu-2``, ``gpuready-mig-1-1g-10gb``, ``gpuready-gpu-1-3f9a0c1b`` (a digest of the selectors)."""
    parts = ["gpuready", request.resource.split(".", 1)[0], str(request.count)]
    if request.mig_profile is not None:
        parts.append(re.sub(r"[^a-z0-9]+", "-", request.mig_profile.lower()).strip("-"))
    if request.selectors:
        text = "\n".join(s.cel() for s in request.selectors)
        parts.append(hashlib.sha256(text.encode()).hexdigest()[:8])
    return "-".join(parts)


def claim_template(request: GpuRequest, namespace: str) -> dict[str, Any]:
    """The ResourceClaimTemplate for ``request`` in ``namespace``: one request of ``count`` devices of its
    DeviceClass, each matching every CEL selector (the MIG profile's first)."""
    conditions = [*([mig_profile_selector(request.mig_profile)] if request.mig_profile else []), *request.selectors]
    exactly: dict[str, Any] = {
        "deviceClassName": request.resource,
        "allocationMode": "ExactCount",
        "count": request.count,
    }
    if conditions:
        exactly["selectors"] = [{"cel": {"expression": c.cel()}} for c in conditions]
    return {
        "apiVersion": RESOURCE_API_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": {"name": claim_template_name(request), "namespace": namespace},
        "spec": {"spec": {"devices": {"requests": [{"name": CLAIM_NAME, "exactly": exactly}]}}},
    }


DYNAMIC_RESOURCES = DynamicResources()
"""The one instance (advertisers hold no state)."""
