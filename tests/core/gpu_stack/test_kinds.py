"""The GPU stack kind seam: one object per ``gpuStack.kind``, its fit rows, its component, one settings list.

Covers: every kind of ``STACK_KINDS`` has exactly one object, in order; a kind builds values exactly when it
installs a chart and serves the advertiser its chart serves; every (platform plugin, kind, driver owner) has a fit
row; the components of the chart kinds are registered; the stack settings are one list (``RELEASE_SETTINGS``)
that the config model and the components' arguments follow; nothing in the GPU stack core compares a kind's name.
"""

from __future__ import annotations

import ast
import typing
from dataclasses import fields
from pathlib import Path

import pytest

from gpuready.core.clouds.node_setup import PlatformAdvertiser
from gpuready.core.clouds.registry import cloud_profiles
from gpuready.core.config_model.gpu_stack_model import GPU_STACK_KEYS
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.kinds import STACK_CHARTS, STACK_KIND_OBJECTS, STACK_KINDS, stack_kind
from gpuready.core.gpu_stack.stack_fits import rows
from gpuready.core.gpu_stack.stack_spec import RELEASE_SETTINGS, GpuStackSpec
from gpuready.core.specs import DRIVER_OWNERS
from gpuready.gpu_stack.install import STACK_COMPONENTS
from gpuready.gpu_stack.release_component import GpuStackReleaseArgs
from tests.ast_source import parse

GPU_STACK_CORE = Path(__file__).parents[3] / "components" / "gpuready" / "core" / "gpu_stack"


def test_one_object_per_kind_in_order() -> None:
    assert tuple(k.key for k in STACK_KIND_OBJECTS) == STACK_KINDS


@pytest.mark.parametrize("kind", STACK_KIND_OBJECTS, ids=lambda k: k.key)
def test_a_kind_builds_values_exactly_when_it_installs_its_chart(kind: GpuStackKind) -> None:
    assert stack_kind(kind.key) is kind
    assert (kind.values is not None) is kind.installs_chart
    assert kind.chart is next((c for k, c in STACK_CHARTS.items() if k == kind.key), None)
    if kind.chart is not None:
        assert kind.serves == kind.chart.advertiser
    assert set(kind.refused) <= {key for _, key, _ in RELEASE_SETTINGS}


def test_an_unknown_kind_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: gpu-operator, device-plugin"):
        stack_kind("gpu-operatr")


@pytest.mark.parametrize("platform", typing.get_args(PlatformAdvertiser))
def test_every_platform_plugin_and_kind_has_a_row_per_driver_owner(platform: PlatformAdvertiser) -> None:
    owners = [p for p in cloud_profiles() if platform in p.platform_fits]
    assert len(owners) == (0 if platform == "nvidia" else 1), "one cloud owns each platform's own plugin"
    for profile in cloud_profiles():
        if platform == "nvidia" or platform in profile.platform_fits:
            for kind in STACK_KINDS:
                assert set(rows(profile.platform_fits, platform, stack_kind(kind))) == set(DRIVER_OWNERS), (
                    platform,
                    kind,
                )
    assert all(set(k.nvidia_fits) == set(DRIVER_OWNERS) for k in STACK_KIND_OBJECTS)


def test_every_chart_kind_has_its_component() -> None:
    assert set(STACK_COMPONENTS) == {k.key for k in STACK_KIND_OBJECTS if k.installs_chart}


def test_the_config_model_and_the_component_arguments_follow_the_one_settings_list() -> None:
    keys = [key for _, key, _ in RELEASE_SETTINGS]
    assert set(GPU_STACK_KEYS) == {"kind", "health", *keys}
    spec_defaults = {name: default for name, _, default in RELEASE_SETTINGS}
    args = {f.name for f in fields(GpuStackReleaseArgs)}
    per_kind = {f.name for component in STACK_COMPONENTS.values() for f in fields(_args_of(component))}
    assert args | per_kind >= set(spec_defaults) - {"cluster_version", "gfd", "mig_reboot"} | {"health"}
    assert per_kind - args <= set(spec_defaults)  # a component adds only settings of the one list
    assert GpuStackSpec(kind="none").set_settings() == {}


def _args_of(component: type) -> type:
    hints = typing.get_type_hints(vars(component)["__init__"])
    args: type = hints["args"]
    return args


def test_no_module_of_the_gpu_stack_core_compares_a_kind_by_name() -> None:
    found = []
    for path in sorted(GPU_STACK_CORE.rglob("*.py")):
        for node in ast.walk(parse(path.read_text())):
            if not isinstance(node, ast.Compare) or not any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops):
                continue
            sides = (node.left, *node.comparators)
            names_kind = any(getattr(s, "attr", getattr(s, "id", "")) == "kind" for s in sides)
            if names_kind and any(isinstance(s, ast.Constant) and s.value in STACK_KINDS for s in sides):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
