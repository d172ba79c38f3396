"""The config models, the specs and the components' Args name the same settings, so none can drift from the
others (issue #12: one config model; issue #16 derives the component package's schema from the models).

Each config model's keys are its spec's fields (the model builds the spec field for field); the chart components'
Args pass every field they share with the GPU stack spec by name (``GpuStackReleaseArgs.stack_spec``).
"""

from __future__ import annotations

from dataclasses import fields

import pytest
from pydantic import BaseModel

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec
from gpuready.core.config_model.gpu_stack_model import GpuStackConfig
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.gpu_stack.device_plugin import NvidiaDevicePluginArgs
from gpuready.gpu_stack.dra_driver import NvidiaDraDriverArgs
from gpuready.gpu_stack.gpu_operator import GpuOperatorArgs
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDraArgs

WIRING = {"pools", "provider", "cluster_name", "tags"}
"""Args fields that are not settings: the pools served, the cluster's provider, and the cluster's name and tags for
the health agent add-on ``health`` installs (``gpuready.stack_adapters.install_health_agent``)."""
PER_CHART = {"gfd", "mig_reboot", "cluster_version"}
"""GPU stack settings of one chart only (the device plugin's GFD switch, the operator's MIG reboot, the DRA driver's
cluster version)."""


def _spec_fields(spec: type) -> set[str]:
    return {f.name for f in fields(spec) if f.init}


@pytest.mark.parametrize(
    ("model", "spec", "not_configured"),
    [
        (PoolConfig, GpuPoolSpec, {"cloud", "conventions"}),  # the stack's (gpuready:cloud, gpuready:conventions)
        (GpuStackConfig, GpuStackSpec, set()),
        (BinPackSchedulerConfig, BinPackSchedulerSpec, {"gpu_resources", "gpu_taint_keys"}),  # from the stack's pools
    ],
)
def test_model_keys_are_the_spec_fields(model: type[BaseModel], spec: type, not_configured: set[str]) -> None:
    assert set(model.model_fields) == _spec_fields(spec) - not_configured


@pytest.mark.parametrize("args", [GpuOperatorArgs, NvidiaDevicePluginArgs, NvidiaDraDriverArgs, GpuOperatorDraArgs])
def test_chart_args_are_gpu_stack_settings(args: type) -> None:
    settings = {f.name for f in fields(args)} - WIRING
    assert settings <= _spec_fields(GpuStackSpec) - {"kind"}
    assert _spec_fields(GpuStackSpec) - {"kind"} - settings <= PER_CHART
