"""The smoke Job's default image, apart from the Job itself so that the CLI's parser names it without loading the
pool model. Pure."""

DEFAULT_SMOKE_IMAGE = "nvcr.io/nvidia/cuda:12.9.1-base-ubuntu24.04"
"""A pinned CUDA base image: ``nvidia-smi`` comes from the driver the NVIDIA container toolkit mounts."""
