"""The smoke Job's default image, apart from the Job itself so that the CLI's parser names it without loading the
pool model. Pure."""

DEFAULT_SMOKE_IMAGE = "nvcr.io/nvidia/cuda:12.9.1-base-ubuntu24.04"
"""A pinned CUDA base image: ``nvidia-smi`` comes from the driver the NVIDIA container toolkit mounts."""

DEFAULT_NCCL_IMAGE = "nvcr.io/nvidia/pytorch:25.01-py3"
"""The two-node NCCL all-reduce's default image (``--smoke-nccl-image``): NVIDIA's NGC PyTorch container, which
carries ``torchrun`` and NCCL (NGC catalog, PyTorch release 25.01). The fabric's NCCL net plugin must be reachable in
it: GKE's TCPX/TCPXO/RDMA plugins come from the node (Google's installers, through the workload helper's mounts and
``LD_LIBRARY_PATH``); on EFA pass an image with aws-ofi-nccl and libfabric (the AWS Deep Learning Containers)."""
