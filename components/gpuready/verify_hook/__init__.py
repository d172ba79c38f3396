"""Verification during ``pulumi up``: a dependable resource per pool that waits for its nodes to converge."""

from gpuready.verify_hook.provider import GpuPoolVerificationProvider, PoolNotConvergedError
from gpuready.verify_hook.resource import (
    DEFAULT_TIMEOUT,
    GpuPoolVerification,
    GpuPoolVerificationArgs,
    verify_pools,
)
from gpuready.verify_hook.wire import expectation_from_data, expectation_to_data

__all__ = [
    "DEFAULT_TIMEOUT",
    "GpuPoolVerification",
    "GpuPoolVerificationArgs",
    "GpuPoolVerificationProvider",
    "PoolNotConvergedError",
    "expectation_from_data",
    "expectation_to_data",
    "verify_pools",
]
