"""The smoke Job's default images and what an image reference looks like, apart from the Job itself so that the
CLI's parser and the stack settings name them without loading the pool model. Pure."""

import re

DEFAULT_SMOKE_IMAGE = "nvcr.io/nvidia/cuda:12.9.1-base-ubuntu24.04"
"""A pinned CUDA base image: ``nvidia-smi`` comes from the driver the NVIDIA container toolkit mounts."""

DEFAULT_NCCL_IMAGE = "nvcr.io/nvidia/pytorch:25.01-py3"
"""The two-node NCCL all-reduce's generic default image, for fabrics whose cloud names no image of their own
(``CloudFabric.nccl_images``): NVIDIA's NGC PyTorch container, which carries ``torchrun`` and NCCL (NGC catalog,
PyTorch release 25.01). GKE's TCPX/TCPXO/RDMA plugins come from the node (Google's installers, through the workload
helper's mounts and ``LD_LIBRARY_PATH``); InfiniBand is NCCL's own ``IB`` transport."""

NCCL_IMAGE_SETTING = "gpuready:verifySmokeNcclImage"
NCCL_IMAGE_FLAG = "--smoke-nccl-image"
"""Where a user passes the all-reduce's image: the stack key (``pulumi up``'s hook) and ``verify``'s flag."""

IMAGE_REFERENCE = re.compile(r"^[a-z0-9]+([._/:@-][A-Za-z0-9_.-]+)+$")
"""An image reference as gpuready accepts one: a registry/repository path with a tag or digest, no spaces."""


def is_image_reference(value: str) -> bool:
    """``value`` looks like an image reference (``IMAGE_REFERENCE``)."""
    return IMAGE_REFERENCE.match(value) is not None
