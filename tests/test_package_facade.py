"""The ``components`` facade: one list of public names, every name resolves, the type checkers' view matches it,
examples import from the facade only, and importing the package loads no Pulumi SDK."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest

import gpuready
from gpuready import public_names
from gpuready.core.component_entry import ComponentEntry, ReleaseEntry, SettingEntry
from tests.ast_source import parse
from tools import facade_stub

ROOT = Path(__file__).resolve().parents[1]
COMPONENT_CLASSES = [
    "AksGpuNodePool", "EksGpuNodePool", "GkeGpuNodePool", "GpuOperator", "NvidiaDevicePlugin", "GpuBinPackingScheduler",
    "EksKarpenterGpuPool", "EksAutoModeGpuPool", "AksNapGpuPool", "GkeComputeClassGpuPool", "GpuKueueObjects",
]  # fmt: skip


def _stub_imports() -> dict[str, str]:
    """Name -> module of every import of the facade's stub ``components/gpuready/__init__.pyi``."""
    tree = parse((ROOT / "components" / "gpuready" / "__init__.pyi").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        assert isinstance(node, ast.ImportFrom) and node.module is not None, ast.unparse(node)
        for alias in node.names:
            assert alias.asname == alias.name, f"{alias.name}: re-export as 'import {alias.name} as {alias.name}'"
            found[alias.name] = node.module
    return found


def _deep_imports(source: str) -> list[str]:
    """Imports of ``gpuready.<module>`` (anything past the facade) in a program's source."""
    deep: list[str] = []
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gpuready."):
            deep.append(f"from {node.module} import ...")
        elif isinstance(node, ast.Import):
            deep += [f"import {a.name}" for a in node.names if a.name.startswith("gpuready.")]
    return deep


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(gpuready.__all__) == sorted(public_names.exports())


def test_the_stub_imports_match_the_exports() -> None:
    assert _stub_imports() == public_names.exports()


def test_the_stub_is_as_generated() -> None:
    assert (ROOT / "components" / "gpuready" / "__init__.pyi").read_text(encoding="utf-8") == facade_stub.stub_text()


def test_the_exports_are_the_shared_names_and_each_registered_component() -> None:
    from gpuready.core.capacity.registry import provisioners  # noqa: PLC0415 - pure core, no SDK
    from gpuready.core.gpu_stack.kinds import STACK_KIND_OBJECTS  # noqa: PLC0415 - pure core, no SDK
    from gpuready.core.setting_components import SETTING_COMPONENTS  # noqa: PLC0415 - pure core, no SDK

    entries: list[ComponentEntry | ReleaseEntry | SettingEntry] = [p.component for p in provisioners()]
    entries += [k.component for k in STACK_KIND_OBJECTS if k.component] + list(SETTING_COMPONENTS)
    plugged = {f"{e.name}{tail}": e.module for e in entries for tail in ("", "Args")}
    assert {**public_names.SHARED, **plugged} == public_names.exports()
    assert set(public_names.SHARED).isdisjoint(plugged)


@pytest.mark.parametrize("program", sorted((ROOT / "examples").glob("*/__main__.py")), ids=lambda p: p.parent.name)
def test_examples_import_only_the_facade(program: Path) -> None:
    assert _deep_imports(program.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    ("source", "deep"),
    [
        ("from gpuready import GpuOperator", []),
        ("from gpuready.core.specs import GpuPoolSpec", ["from gpuready.core.specs import ..."]),
        ("import gpuready.eks.node_pool", ["import gpuready.eks.node_pool"]),
        ("import gpuready", []),
    ],
)
def test_the_deep_import_check_finds_deep_imports(source: str, deep: list[str]) -> None:
    assert _deep_imports(source) == deep


@pytest.mark.parametrize("name", COMPONENT_CLASSES)
def test_every_component_takes_name_args_opts(name: str) -> None:
    parameters = list(inspect.signature(getattr(gpuready, name).__init__).parameters)
    assert parameters == ["self", "name", "args", "opts"]
    assert f"{name}Args" in gpuready.__all__


@pytest.mark.parametrize("name", gpuready.__all__)
def test_every_public_name_resolves_to_its_module(name: str) -> None:
    value = getattr(gpuready, name)
    assert value.__name__ == name
    assert value.__module__ == public_names.exports()[name]


def test_every_elastic_pool_component_is_public() -> None:
    """Each elastic provisioner's component (its builder module) is a public name, with its Args, from its
    registration entry."""
    from gpuready.core.capacity.registry import provisioners  # noqa: PLC0415 - pure core, no SDK

    adapters = {p.component.builder for p in provisioners() if p.elastic}
    public = {module for name, module in public_names.exports().items() if name in COMPONENT_CLASSES}
    assert adapters <= public, sorted(adapters - public)
    assert {p.component.module for p in provisioners() if p.elastic} == adapters


def test_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = gpuready.Nope  # type: ignore[attr-defined]


def test_importing_the_package_loads_no_pulumi_sdk() -> None:
    code = "import sys, components; print(sorted(m for m in sys.modules if m.split('.')[0].startswith('pulumi')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
