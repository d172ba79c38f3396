"""A component's inputs checked without building it: the checks ``provider.GpuReadyProvider.construct`` makes before
anything registers (required inputs, then the pool, GPU stack and scheduler parsers, the same functions the
builders call), for programs gpuready cannot run offline (Pulumi YAML: ``gpuready.offline.yaml_program``).

Wiring inputs (cluster name, role, subnets) are checked by the schema's types only: the components check them
while building, which needs the cloud's SDK.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from gpuready.core.config_model.gpu_stack_model import parse_gpu_stack
from gpuready.core.config_model.problems import rebased
from gpuready.core.config_model.scheduler_model import parse_binpack
from gpuready.core.pool_config import parse_pools
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, karpenter_cluster
from gpuready.errors import ConfigError, Problem
from gpuready.gpu_stack.device_plugin import NvidiaDevicePlugin
from gpuready.gpu_stack.dra_driver import NvidiaDraDriver
from gpuready.gpu_stack.gpu_operator import GpuOperator
from gpuready.gpu_stack.gpu_operator_dra import GpuOperatorDra
from gpuready.package.json_types import token
from gpuready.package.provider import (
    CONVENTION_INPUTS,
    ELASTIC_POOLS,
    FEATURE_GATES,
    POOL_ADAPTERS,
    conventions_of,
    plain,
    pools_of,
)

RELEASE_KINDS = {
    GpuOperator.TOKEN: "gpu-operator",
    NvidiaDevicePlugin.TOKEN: "device-plugin",
    NvidiaDraDriver.TOKEN: "dra-driver",
    GpuOperatorDra.TOKEN: "gpu-operator-dra",
}
"""Release component token -> the GPU stack kind its builder parses (``provider._release_builder``)."""
SCHEDULER = token("GpuBinPackingScheduler")


def check_inputs(resource_type: str, inputs: Mapping[str, Any]) -> None:
    """Raise ``ConfigError`` with every problem the component's parsers find in ``inputs`` (input paths)."""
    component = resource_type.rsplit(":", 1)[-1]
    if component in POOL_ADAPTERS:
        _check_pool(inputs, importlib.import_module(POOL_ADAPTERS[component]).PACKAGE_CLOUD, None, None)
    elif component in ELASTIC_POOLS:
        module, provisioner, _ = ELASTIC_POOLS[component]
        _check_pool(inputs, importlib.import_module(module).PACKAGE_CLOUD, provisioner, component)
    elif resource_type in RELEASE_KINDS:
        given = {k: plain(v, k) for k, v in inputs.items() if k not in ("pools", "cloud", *CONVENTION_INPUTS)}
        try:
            parse_gpu_stack({**given, "kind": RELEASE_KINDS[resource_type]}, "gpuStack")
        except ConfigError as error:
            raise ConfigError(rebased(error.problems, "gpuStack.", "")) from None
        pools_of(inputs.get("pools"), inputs.get("cloud"), "pools", conventions_of(inputs))
    elif resource_type == SCHEDULER:
        conventions = conventions_of(inputs)
        pools = pools_of(inputs["pools"], inputs.get("cloud"), "pools", conventions) if inputs.get("pools") else ()
        given = {k: plain(v, k) for k, v in inputs.items() if k not in ("pools", "cloud", *CONVENTION_INPUTS)}
        try:
            parse_binpack(given, pools, "binpackScheduler")
        except ConfigError as error:
            raise ConfigError(rebased(error.problems, "binpackScheduler.", "")) from None


def _check_pool(inputs: Mapping[str, Any], cloud: Any, provisioner: str | None, component: str | None) -> None:
    entry = plain(inputs.get("pool"), "pool")
    if provisioner is not None and isinstance(entry, Mapping):
        entry = {"provisioner": provisioner, **entry}
    problems: list[Problem] = []
    cluster = DEFAULT_CLUSTER
    if component is not None:
        cluster = karpenter_cluster(plain(inputs.get(FEATURE_GATES), FEATURE_GATES), FEATURE_GATES, problems)
        if problems:
            raise ConfigError(problems)
    try:
        (spec,) = parse_pools([entry], cloud, "pool", cluster, conventions_of(inputs))
    except ConfigError as error:
        raise ConfigError(rebased(error.problems, "pool[0]", "pool")) from None
    if provisioner is not None and spec.provisioner != provisioner:
        raise ConfigError.one(
            "pool.provisioner", f"{component} makes {provisioner} pools", spec.provisioner, (provisioner,),
            "remove provisioner, or use the component of that provisioner",
        )  # fmt: skip
