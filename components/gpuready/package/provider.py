"""The gpuready package provider: serves the generated schema and builds the Python components in ``Construct``.

Why a classic ``pulumi.provider.Provider`` (``pulumi/provider/provider.py``, served by
``pulumi/provider/server.py:main``) rather than the component host of ``pulumi.provider.experimental``
(``host.py:component_provider_host``, whose ``analyzer.py`` infers the schema from the type hints of each
component's Args class): gpuready's Args are frozen dataclasses holding validated specs (``GpuPoolSpec``), and the
stack config's shape lives in pydantic config models, which the analyzer cannot read. Here the schema comes from
those models (``gpuready.package.schema``) and the inputs are checked by the same parsers as the stack
program's (``parse_pools``, ``parse_gpu_stack``, a setting entry's parser, through
``gpuready.package.input_check``, which ``gpuready plan`` also runs on Pulumi YAML programs), so a problem reads the
same, the path
naming the component's input instead of the stack key.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, Protocol, cast

import pulumi
from pulumi.errors import InputPropertiesError
from pulumi.provider import ConstructResult, Provider
from pydantic.alias_generators import to_camel

import gpuready.plugins  # noqa: F401 - registers the clouds' profiles (the provider's process is an entry point)
from gpuready.core.capacity.interface import Provisioner
from gpuready.core.component_entry import ReleaseEntry, SettingEntry
from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.setting_components import SETTING_COMPONENTS
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import ConfigError, GpuReadyError, Problem, SpecError, bounded_text
from gpuready.gpu_stack.install import release_classes
from gpuready.gpu_stack.release_component import GpuStackRelease
from gpuready.package.input_check import (
    AGENT_WIRING,
    CONVENTION_INPUTS,
    FEATURE_GATES,
    POOL_COMPONENTS,
    elastic_pool,
    fixed_pool,
    plain,
    release_inputs,
    setting_inputs,
)
from gpuready.package.json_types import token
from gpuready.package.schema import VERSION, schema_text
from gpuready.pool_outputs import GpuNodePoolBase

KUBERNETES = "kubernetes"


class PoolBuilder(Protocol):
    """A node pool component's builder module (``ComponentEntry.builder``)."""

    def package_pool(
        self, name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], opts: pulumi.ResourceOptions
    ) -> GpuNodePoolBase: ...


class ElasticPoolBuilder(Protocol):
    """An elastic pool component's builder module (``ComponentEntry.builder``)."""

    def package_pool(
        self, name: str, spec: GpuPoolSpec, wiring: Mapping[str, Any], provider: pulumi.ProviderResource,
        opts: pulumi.ResourceOptions, *, cluster: ClusterFacts = DEFAULT_CLUSTER,
    ) -> GpuNodePoolBase: ...  # fmt: skip

    """``cluster`` is passed only to the components whose schema takes ``karpenterFeatureGates``."""


Built = tuple[pulumi.ComponentResource, dict[str, Any]]


class GpuReadyProvider(Provider):
    """Hosts every gpuready component under the type token its Python class registers."""

    def __init__(self) -> None:
        text = schema_text()
        super().__init__(VERSION, text)
        resources = json.loads(text)["resources"]
        self._required: dict[str, tuple[str, ...]] = {
            key: tuple(entry.get("requiredInputs") or ()) for key, entry in resources.items()
        }
        """Component token -> the inputs its schema requires (checked before anything registers)."""
        self._builders: dict[str, Callable[[str, Mapping[str, Any], pulumi.ResourceOptions], Built]] = {
            **{
                token(component): _elastic_builder(
                    provisioner, gated=FEATURE_GATES in resources[token(component)]["inputProperties"]
                )
                if provisioner.elastic
                else _pool_builder(provisioner)
                for component, provisioner in POOL_COMPONENTS.items()
            },
            **{token(entry.name): _release_builder(entry, kind) for kind, entry in CHART_COMPONENTS.items()},
            **{token(entry.name): _setting_builder(entry) for entry in SETTING_COMPONENTS},
        }

    def construct(
        self, name: str, resource_type: str, inputs: Mapping[str, Any], options: pulumi.ResourceOptions | None = None
    ) -> ConstructResult:
        """Build the component. Every refusal of gpuready (a config problem, a rule of the GPU stack, missing
        wiring) answers INVALID_ARGUMENT with the stack program's wording, raised before the component registers
        (inputs are parsed and plans made first); only a bug of gpuready itself is UNKNOWN."""
        build = self._builders.get(resource_type)
        if build is None:
            raise ValueError(f"gpuready has no component {resource_type}; known: {', '.join(sorted(self._builders))}")
        missing = [key for key in self._required.get(resource_type, ()) if inputs.get(key) is None]
        try:
            if missing:
                raise ConfigError([
                    Problem(key, f"is required by {resource_type.rsplit(':', 1)[-1]}", None, (), "set it")
                    for key in missing
                ])  # fmt: skip
            component, state = build(name, inputs, options or pulumi.ResourceOptions())
        except SpecError as error:
            errors = [{"property_path": p.path, "reason": str(p).removeprefix(f"{p.path}: ")} for p in error.problems]
            raise InputPropertiesError(str(error), errors) from None  # type: ignore[arg-type]
        except GpuReadyError as error:
            raise InputPropertiesError(bounded_text(str(error)), []) from None
        return ConstructResult(urn=component.urn, state=state)


def _pool_builder(provisioner: Provisioner) -> Callable[[str, Mapping[str, Any], pulumi.ResourceOptions], Built]:
    def build(name: str, inputs: Mapping[str, Any], opts: pulumi.ResourceOptions) -> Built:
        builder = cast("PoolBuilder", importlib.import_module(provisioner.component.builder))
        spec = fixed_pool(inputs, provisioner.cloud)
        pool = builder.package_pool(name, spec, inputs, opts)
        outputs = {to_camel(key): value for key, value in pool.values.as_dict().items()}
        return pool, {"nodePoolName": pool.node_pool_name, **outputs}

    return build


def _elastic_builder(
    provisioner: Provisioner, *, gated: bool
) -> Callable[[str, Mapping[str, Any], pulumi.ResourceOptions], Built]:
    entry = provisioner.component

    def build(name: str, inputs: Mapping[str, Any], opts: pulumi.ResourceOptions) -> Built:
        builder = cast("ElasticPoolBuilder", importlib.import_module(entry.builder))
        spec, cluster = elastic_pool(entry.name, inputs, provisioner.cloud, provisioner.key, gated=gated)
        skipped = ("pool", FEATURE_GATES, *CONVENTION_INPUTS)
        wiring = {k: plain(v, k) if entry.known_wiring else v for k, v in inputs.items() if k not in skipped}
        provider = _kubernetes_provider(entry.name, opts)
        pool = builder.package_pool(name, spec, wiring, provider, opts, **({"cluster": cluster} if gated else {}))
        outputs = {to_camel(key): value for key, value in pool.values.as_dict().items()}
        return pool, {"nodePoolName": pool.node_pool_name, **outputs}

    return build


def _kubernetes_provider(component: str, opts: pulumi.ResourceOptions) -> pulumi.ProviderResource:
    """The cluster's Kubernetes provider the caller passed in the resource options (``providers``)."""
    given = opts.providers
    found = given.get(KUBERNETES) if isinstance(given, Mapping) else None
    if found is None and isinstance(given, list | tuple):
        found = next((p for p in given if getattr(p, "package", None) == KUBERNETES), None)
    if found is None:
        raise ConfigError.one(
            "providers", f"{component} makes Kubernetes objects on the cluster, and no Kubernetes provider was given",
            None, (), "pass the cluster's Kubernetes provider in the resource options (providers: [provider])",
        )  # fmt: skip
    return found


def _release_builder(
    entry: ReleaseEntry, kind: str
) -> Callable[[str, Mapping[str, Any], pulumi.ResourceOptions], Built]:
    component_class, args_type = release_classes(entry)
    component = cast(
        "Callable[[str, Any, pulumi.ResourceOptions], GpuStackRelease]", component_class
    )  # (name, args, opts)
    keys = frozenset(f.name for f in fields(args_type)) - {"pools", "provider", *AGENT_WIRING.values()}

    def build(name: str, inputs: Mapping[str, Any], opts: pulumi.ResourceOptions) -> Built:
        spec, pools = release_inputs(kind, inputs)
        agent = {arg: plain(inputs[key], key) for key, arg in AGENT_WIRING.items() if inputs.get(key) is not None}
        args = args_type(pools=pools, **{k: getattr(spec, k) for k in keys}, **agent)
        release = component(name, args, opts)
        plan = release.plan.release
        assert plan is not None  # a chart component's plan installs its chart
        return release, {
            "releaseName": release.release.name,
            "namespace": plan.namespace,
            "chart": plan.chart.name,
            "version": plan.version,
        }

    return build


class SettingBuilder(Protocol):
    """A stack-wide component's builder module (``SettingEntry.builder``): ``cluster`` gives the Kubernetes provider
    passed in the resource options (a ``ConfigError`` naming ``providers`` when none was), for a component that takes
    it in its Args."""

    def package_component(
        self, name: str, spec: Any, pools: tuple[GpuPoolSpec, ...], cluster: Callable[[], pulumi.ProviderResource],
        opts: pulumi.ResourceOptions,
    ) -> Built: ...  # fmt: skip


def _setting_builder(entry: SettingEntry) -> Callable[[str, Mapping[str, Any], pulumi.ResourceOptions], Built]:
    def build(name: str, inputs: Mapping[str, Any], opts: pulumi.ResourceOptions) -> Built:
        builder = cast("SettingBuilder", importlib.import_module(entry.builder))
        spec, pools = setting_inputs(entry, inputs)
        return builder.package_component(name, spec, pools, lambda: _kubernetes_provider(entry.name, opts), opts)

    return build


def main() -> None:
    """Serve the provider: print the port, then answer the engine (``pulumi.provider.main``)."""
    import sys  # noqa: PLC0415 - only the entry point reads the command line

    pulumi.provider.main(GpuReadyProvider(), sys.argv[1:])
