"""GKE node image families for GPU pools, one row each (``ImageFacts``). Pure.

Sources: pulumi_gcp 10.2.0 ``NodePoolNodeConfig.image_type`` (``tests/fidelity/test_gke_values.py``),
``gpu_driver_version`` DEFAULT / LATEST (LATEST on COS only; pulumi_gcp 10.2.0 docs), cloud-native-docs
``google-gke.rst`` (the GPU Operator's driver only on Ubuntu; no COS build of its driver containers and toolkit,
NVIDIA/nvidia-container-toolkit#209).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.clouds.images import ImageFacts, on_every_arch

IMAGES: Mapping[str, ImageFacts] = {
    "cos": ImageFacts(
        title="GKE cos",
        api_names=on_every_arch("COS_CONTAINERD"),
        operator_driver=False,
        driver_versions=("default", "latest"),
    ),
    "ubuntu": ImageFacts(
        title="GKE ubuntu", api_names=on_every_arch("UBUNTU_CONTAINERD"), driver_versions=("default",)
    ),
}
"""Image family -> its facts; the first is the default."""
