"""The node checks of the DRA advertiser (``core.advertisers.dra``), registered in ``advertised.NODE_CHECKS``.
Pure: no I/O.

A DRA node publishes its GPUs in ResourceSlices, never as ``nvidia.com/gpu`` extended resources. A node of a DRA
pool that advertises them runs the NVIDIA device plugin beside the DRA driver, which the DRA driver's chart
refuses (``dra-driver-nvidia-gpu`` 0.4.0 ``templates/validation.yaml``: with ``resources.gpus.enabled`` the driver
"cannot be deployed alongside the standard GPU device plugin on the same node"): both would hand out the same
GPUs.
"""

from __future__ import annotations

from gpuready.core import namespaces
from gpuready.verify import findings as f
from gpuready.verify.expectations import Expectation, advertised_gpu_resources
from gpuready.verify.findings import Finding, show_node
from gpuready.verify.node_labels import LABEL_DEPLOY_DEVICE_PLUGIN
from gpuready.verify.nodes import NodeView


def check_dra_node(view: NodeView, expectation: Expectation) -> list[Finding]:
    """Findings about a node of a DRA pool: no extended GPU resources beside the DRA driver's devices."""
    advertised = advertised_gpu_resources(view)
    if not advertised:
        return []
    shown = ", ".join(f"{name}={n}" for name, n in sorted(advertised.items()))
    return [
        Finding(
            node=view.name,
            severity="error",
            code=f.DRA_NODE_HAS_DEVICE_PLUGIN,
            message=f"extended GPU resources: advertised on a node of DRA pool {expectation.pool!r}; got {shown}, "
            "expected none (its GPUs are claimed through ResourceClaims)",
            cause="the NVIDIA device plugin runs on this node beside the DRA driver, so both hand out the same GPUs",
            fix=f"keep the device plugin off the pool's nodes (kubectl label node {view.name} "
            f"{LABEL_DEPLOY_DEVICE_PLUGIN}=false under the GPU Operator), then `gpuready plan` to see which "
            f"release selects them; pods in {namespaces.GPU_OPERATOR} show which plugin runs",
            reproduce=show_node(view.name, "{.status.allocatable}"),
        )
    ]
