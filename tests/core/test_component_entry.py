"""A plug-in's registration entry: complete or refused when made (at import), naming the part it lacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gpuready.core import component_entry
from gpuready.core.capacity.registry import component_provisioners, provisioners
from gpuready.core.component_entry import ComponentEntry, ReleaseEntry, SettingEntry, Wire
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS, STACK_KIND_OBJECTS
from gpuready.core.gpu_stack.kinds.gpu_operator_dra import GPU_OPERATOR_DRA_STACK
from gpuready.core.setting_components import SETTING_COMPONENTS
from gpuready.eks.auto_mode import EksAutoMode
from gpuready.errors import RegistrationError
from gpuready.package.json_types import token
from gpuready.package.schema import POOL_TYPE

ROOT = Path(__file__).resolve().parents[2]

COMPLETE: dict[str, Any] = {
    "name": "ExampleGpuPool",
    "module": "example.pool",
    "builder": "example.pool",
    "description": "An example pool.",
    "wiring": (component_entry.POOL,),
}


@pytest.mark.parametrize(
    ("left_out", "named"),
    [
        (("name",), "lacks name"),
        (("module",), "lacks module"),
        (("builder",), "lacks builder"),
        (("description",), "lacks description"),
        (("wiring",), "lacks wiring"),
        (("module", "wiring"), "lacks module, wiring"),
    ],
)
def test_an_entry_lacking_a_part_is_refused_naming_it(left_out: tuple[str, ...], named: str) -> None:
    with pytest.raises(RegistrationError, match=named):
        ComponentEntry(**{k: v for k, v in COMPLETE.items() if k not in left_out})


def test_an_entry_without_a_pool_input_is_refused() -> None:
    with pytest.raises(RegistrationError, match="lacks its pool input"):
        ComponentEntry(**{**COMPLETE, "wiring": (Wire("clusterName", component_entry.STRING, "The cluster."),)})


def test_a_complete_entry_exports_its_component_and_args() -> None:
    entry = ComponentEntry(**COMPLETE)
    assert entry.exports == {"ExampleGpuPool": "example.pool", "ExampleGpuPoolArgs": "example.pool"}


def test_a_provisioner_without_its_entry_fails_when_made() -> None:
    class Unregistered(EksAutoMode):
        component: ClassVar[Any] = None

    with pytest.raises(RegistrationError, match="Unregistered lacks component"):
        Unregistered()


def test_every_provisioner_registers_its_own_component() -> None:
    names = [p.component.name for p in provisioners()]
    assert len(set(names)) == len(names)
    assert {p.component.name for p in component_provisioners()} == set(names)
    assert [p.elastic for p in component_provisioners()] == sorted(p.elastic for p in provisioners())


def test_the_pool_reference_is_the_schemas_pool_type() -> None:
    assert {"$ref": f"#/types/{token(POOL_TYPE)}"} == component_entry.POOL_REF


RELEASE: dict[str, Any] = {
    "name": "ExampleChart",
    "module": "example.chart",
    "description": "An example chart.",
    "skip": frozenset({"kind"}),
}


@pytest.mark.parametrize(
    ("left_out", "named"),
    [
        (("name",), "lacks name"),
        (("module",), "lacks module"),
        (("description",), "lacks description"),
        (("skip",), "lacks skip"),
    ],
)
def test_a_release_entry_lacking_a_part_is_refused_naming_it(left_out: tuple[str, ...], named: str) -> None:
    with pytest.raises(RegistrationError, match=named):
        ReleaseEntry(**{k: v for k, v in RELEASE.items() if k not in left_out})


@pytest.mark.parametrize(
    ("changes", "named"),
    [
        ({"component": None}, "'gpu-operator-dra' lacks component"),
        ({"values": None, "component": None}, "lacks values, component"),
        ({"chart": None}, "installs no chart but has values, component"),
        ({"nvidia_fits": {}}, r"has nvidia_fits rows for \[\]; it needs one per driver owner: cloud, operator"),
    ],
)
def test_a_stack_kind_without_its_entry_fails_when_made(changes: dict[str, Any], named: str) -> None:
    fields = {name: getattr(GPU_OPERATOR_DRA_STACK, name) for name in GpuStackKind.__dataclass_fields__}
    with pytest.raises(RegistrationError, match=named):
        GpuStackKind(**{**fields, **changes})


def test_every_kind_that_installs_a_chart_registers_its_own_component() -> None:
    assert list(CHART_COMPONENTS) == [k.key for k in STACK_KIND_OBJECTS if k.installs_chart]
    names = [entry.name for entry in CHART_COMPONENTS.values()]
    assert len(set(names)) == len(names)


SETTING: dict[str, Any] = {
    "name": "ExampleSetting",
    "module": "example.setting",
    "builder": "example.setting_builder",
    "key": "example",
    "setting": "example",
    "stack_name": "example",
    "model": dict,
    "parse": lambda raw, pools, path: raw,
    "description": "An example stack-wide component.",
    "pools": "The pools it serves.",
    "outputs": {"name": {"type": "string", "description": "Its name."}},
}


@pytest.mark.parametrize(
    ("left_out", "named"),
    [
        (("name",), "lacks name"),
        (("builder",), "lacks builder"),
        (("key",), "lacks key"),
        (("setting", "stack_name"), "lacks setting, stack_name"),
        (("model", "parse"), "lacks model, parse"),
        (("pools", "outputs"), "lacks pools, outputs"),
    ],
)
def test_a_setting_entry_lacking_a_part_is_refused_naming_it(left_out: tuple[str, ...], named: str) -> None:
    with pytest.raises(RegistrationError, match=named):
        SettingEntry(**{k: v for k, v in SETTING.items() if k not in left_out})


def test_the_setting_components_are_the_scheduler_and_the_kueue_objects_each_registered_once() -> None:
    assert [(entry.name, entry.key) for entry in SETTING_COMPONENTS] == [
        ("GpuBinPackingScheduler", "binpackScheduler"),
        ("GpuKueueObjects", "kueue"),
    ]
    for part in ("name", "key", "setting", "stack_name"):
        values = [getattr(entry, part) for entry in SETTING_COMPONENTS]
        assert len(set(values)) == len(values), part


@pytest.mark.parametrize("entry", SETTING_COMPONENTS, ids=lambda entry: entry.name)
def test_a_setting_component_is_a_plug_in_whose_modules_define_its_class_args_and_builders(entry: SettingEntry) -> None:
    """One entry, whose class and Args its module defines and whose builder module builds it for the component
    package and for the stack program (and says what the stack exports of it)."""
    import importlib  # noqa: PLC0415 - the adapter loads the Kubernetes SDK

    module, builder = importlib.import_module(entry.module), importlib.import_module(entry.builder)
    assert {name: hasattr(module, name) for name in entry.exports} == dict.fromkeys(entry.exports, True)
    builders = ("package_component", "stack_component", "stack_exports")
    assert {name: callable(getattr(builder, name, None)) for name in builders} == dict.fromkeys(builders, True)
    assert module.TYPE_TOKEN.endswith(f":{entry.name}")


DERIVED = (
    "components/gpuready/public_names.py",
    "components/gpuready/package/provider.py",
    "components/gpuready/package/schema.py",
    "components/gpuready/package/input_check.py",
    "components/gpuready/package/yaml_program.py",
    "components/gpuready/stack_program/program.py",
)
"""The modules that derive the setting components from their entries (the facade, the component package, the
stack program)."""


@pytest.mark.parametrize("path", DERIVED)
def test_the_modules_that_derive_from_the_entries_name_no_setting_component(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    assert [entry.name for entry in SETTING_COMPONENTS if entry.name in source] == []
    assert [entry.module for entry in SETTING_COMPONENTS if entry.module in source] == []


def test_a_setting_entry_loads_its_config_model_only_when_asked() -> None:
    """Listing the entries builds no config model (a stack that sets no key pays none: issue #32)."""
    code = (
        "import sys; import gpuready.plugins; from gpuready.core.setting_components import SETTING_COMPONENTS; "
        "loaded = [m for m in ('gpuready.core.config_model.scheduler_model',) if m in sys.modules]; "
        "models = [entry.model() for entry in SETTING_COMPONENTS if entry.model is not None]; "
        "print(loaded, [m.__name__ for m in models])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] ['BinPackSchedulerConfig', 'KueueConfig']"
