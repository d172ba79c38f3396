"""EC2 GPU instance types that are fractions of a GPU, and the NVIDIA GPU types gpuready leaves out (with why).

Fractional L4 (G6f, Gr6f): EC2 DescribeInstanceTypes reports ``Count: 0``, ``LogicalGpuCount: 1`` and a
``GpuPartitionSize`` below 1 (moto 5.2.5 ``instance_types.json.gz``; the field is "the size of each GPU as a
fraction of a full GPU", EC2 API reference ``GpuDeviceInfo``). AWS partitions the L4 before the instance
boots: the instance gets a fixed share of the GPU's compute and memory as one device ("Amazon EC2 G6f
instances with fractional GPUs", AWS What's New, 2025-07), so Kubernetes sees ``nvidia.com/gpu: 1``. The
sharing is AWS's and fixed: the slice cannot be split further with MIG (L4 has none), and Amazon ECS, the
other AWS scheduler, refuses its own MPS GPU sharing on G6f and asks for a fractional GPU value instead
(Amazon ECS developer guide, "Specifying GPUs in an Amazon ECS task definition" and GPU sharing).
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.catalog.instance_types import InstanceType

_SRC = "EC2 DescribeInstanceTypes via moto 5.2.5 instance_types.json.gz"

_FRACTIONS: Mapping[str, float] = {
    "g6f.large": 0.125,
    "g6f.xlarge": 0.125,
    "g6f.2xlarge": 0.25,
    "g6f.4xlarge": 0.5,
    "gr6f.4xlarge": 0.5,
}
"""Instance type -> ``GpuPartitionSize`` of its one L4 slice."""

FRACTIONAL_L4: Mapping[str, InstanceType] = {
    name: InstanceType("eks", name, "l4", 1, "x86_64", f"{_SRC} {name.split('.')[0]} (fractional)", fraction)
    for name, fraction in _FRACTIONS.items()
}
"""The fractional-L4 EC2 types: one device, a fixed share of one L4."""

EXCLUDED: Mapping[str, str] = {}
"""NVIDIA GPU instance types in the locked EC2 data that gpuready does not list -> why. Empty: all are listed."""
