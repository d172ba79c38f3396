"""Which nodes are GPU nodes, and which GPU they carry."""

from __future__ import annotations

import pytest

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.verify.inference import gpu_signals, infer_accelerator, is_gpu_node, model_for_product
from tests.verify.conftest import view

# fmt: off
GPU_NODE_CASES = [
    ("device-plugin-capacity", {}, {"nvidia.com/gpu": 8}, True),
    ("renamed-shared-capacity", {}, {"nvidia.com/gpu.shared": 4}, True),
    ("mig-capacity", {}, {"nvidia.com/mig-1g.10gb": 7}, True),
    ("nfd-pci-10de", {"feature.node.kubernetes.io/pci-10de.present": "true"}, {}, True),
    ("nfd-class-vendor", {"feature.node.kubernetes.io/pci-0302_10de.present": "true"}, {}, True),
    ("gke-accelerator", {"cloud.google.com/gke-accelerator": "nvidia-l4"}, {}, True),
    ("aks-accelerator", {"kubernetes.azure.com/accelerator": "nvidia"}, {}, True),
    ("gpu-present", {"nvidia.com/gpu.present": "true"}, {}, True),
    ("gpuready-pool", {"gpuready.io/pool": "train"}, {}, True),
    ("eks-instance-type", {"node.kubernetes.io/instance-type": "p5.48xlarge"}, {}, True),
    ("aks-vm-size-any-case", {"node.kubernetes.io/instance-type": "standard_nc24ads_a100_v4"}, {}, True),
    ("gke-machine-type", {"node.kubernetes.io/instance-type": "a3-highgpu-8g"}, {}, True),
    ("cpu-instance-type", {"node.kubernetes.io/instance-type": "m5.large"}, {}, False),
    ("gpu-present-false", {"nvidia.com/gpu.present": "false"}, {}, False),
    ("empty-gke-label", {"cloud.google.com/gke-accelerator": ""}, {}, False),  # skypilot#6274
    ("aks-other-accelerator", {"kubernetes.azure.com/accelerator": "amd"}, {}, False),
    ("other-extended-resource", {}, {"example.com/fpga": 1}, False),
]
# fmt: on


@pytest.mark.parametrize(
    ("labels", "capacity", "expected"), [c[1:] for c in GPU_NODE_CASES], ids=[c[0] for c in GPU_NODE_CASES]
)
def test_is_gpu_node(labels: dict[str, str], capacity: dict[str, int], expected: bool) -> None:
    node = view(labels=labels, capacity=capacity)
    assert is_gpu_node(node) is expected
    assert bool(gpu_signals(node)) is expected


# fmt: off
INFERENCE_CASES = [
    ("gfd-a100-80gb-sxm", {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-80GB"}, "a100-80gb", "gfd-product"),
    ("gfd-a100-80gb-pcie", {"nvidia.com/gpu.product": "NVIDIA-A100-80GB-PCIe"}, "a100-80gb", "gfd-product"),
    ("gfd-a100-40gb", {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB"}, "a100", "gfd-product"),
    ("gfd-a100-mig-suffix", {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb"}, "a100", "gfd-product"),
    ("gfd-h100-prefers-plain", {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}, "h100", "gfd-product"),
    ("gfd-h100-shared-suffix", {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3-SHARED"}, "h100", "gfd-product"),
    ("gfd-h100-nvl", {"nvidia.com/gpu.product": "NVIDIA-H100-NVL"}, "h100-nvl", "gfd-product"),
    ("gfd-gh200-not-h200", {"nvidia.com/gpu.product": "NVIDIA-GH200-480GB"}, "gh200", "gfd-product"),
    ("gfd-t4", {"nvidia.com/gpu.product": "Tesla-T4"}, "t4", "gfd-product"),
    ("gfd-a10g-not-a10", {"nvidia.com/gpu.product": "NVIDIA-A10G"}, "a10g", "gfd-product"),
    ("gfd-v100-32gb", {"nvidia.com/gpu.product": "Tesla-V100-SXM2-32GB"}, "v100-32gb", "gfd-product"),
    ("gke-l4", {"cloud.google.com/gke-accelerator": "nvidia-l4"}, "l4", "gke-accelerator"),
    ("gke-a100-80gb", {"cloud.google.com/gke-accelerator": "nvidia-a100-80gb"}, "a100-80gb", "gke-accelerator"),
    ("eks-p5", {"node.kubernetes.io/instance-type": "p5.48xlarge"}, "h100", "instance-type"),
    ("eks-g5", {"node.kubernetes.io/instance-type": "g5.2xlarge"}, "a10g", "instance-type"),
    ("beta-instance-label", {"beta.kubernetes.io/instance-type": "g6.xlarge"}, "l4", "instance-type"),
    ("aks-lowercase", {"node.kubernetes.io/instance-type": "standard_nc24ads_a100_v4"}, "a100-80gb", "instance-type"),
    ("gke-a3-mega", {"node.kubernetes.io/instance-type": "a3-megagpu-8g"}, "h100-mega", "instance-type"),
    ("gfd-beats-instance-type",
     {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "node.kubernetes.io/instance-type": "p5.48xlarge"},
     "a100", "gfd-product"),
    ("unknown-product-falls-back",
     {"nvidia.com/gpu.product": "NVIDIA-RTX-A6000", "node.kubernetes.io/instance-type": "g6e.xlarge"},
     "l40s", "instance-type"),
    ("gke-beats-instance-type",
     {"cloud.google.com/gke-accelerator": "nvidia-tesla-t4", "node.kubernetes.io/instance-type": "n1-standard-8"},
     "t4", "gke-accelerator"),
    ("own-label-keeps-ambiguous-product",
     {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3", "gpuready.io/accelerator": "h100-mega"},
     "h100-mega", "gfd-product"),
    ("own-label-overruled-by-product",
     {"nvidia.com/gpu.product": "NVIDIA-A100-SXM4-40GB", "gpuready.io/accelerator": "h100"}, "a100", "gfd-product"),
    ("own-label-last-resort", {"gpuready.io/accelerator": "l40s"}, "l40s", "gpuready-label"),
]
# fmt: on


@pytest.mark.parametrize(
    ("labels", "key", "source"), [c[1:] for c in INFERENCE_CASES], ids=[c[0] for c in INFERENCE_CASES]
)
def test_infer_accelerator(labels: dict[str, str], key: str, source: str) -> None:
    inference = infer_accelerator(view(labels=labels))
    assert inference is not None
    assert (inference.model.key, inference.source) == (key, source)


@pytest.mark.parametrize(
    "labels",
    [
        {},
        {"nvidia.com/gpu.product": "NVIDIA-RTX-A6000"},
        {"cloud.google.com/gke-accelerator": "nvidia-tesla-k80"},
        {"node.kubernetes.io/instance-type": "m5.large"},
        {"gpuready.io/accelerator": "not-a-model"},
    ],
    ids=["nothing", "unknown-product", "unknown-gke", "cpu-type", "bogus-own-label"],
)
def test_infer_accelerator_returns_none_when_nothing_names_a_known_gpu(labels: dict[str, str]) -> None:
    assert infer_accelerator(view(labels=labels)) is None


def test_every_catalog_models_own_display_name_infers_itself() -> None:
    # Invariant: GFD-style "NVIDIA-<display>" names each catalog model, unambiguously.
    for key, model in GPU_MODELS.items():
        found = model_for_product(f"NVIDIA-{model.display}")
        assert found is not None and found.key == key, (key, found)
