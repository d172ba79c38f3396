"""Every class of the package is a ``record`` (``gpuready.record``), not a ``dataclasses.dataclass``: a dataclass costs
about 0.6 ms to define on Python 3.11 (issue #32). The exceptions are listed here with the reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "components" / "gpuready"

ALLOWED: dict[tuple[str, str], str] = {}
"""(module path under components/gpuready, class name): why the class stays a dataclass. Empty: no class measured
faster as a dataclass (a record's methods are the dataclass's own code once compiled; ``bench/records.py``)."""


def dataclass_classes(source: str) -> list[str]:
    """The classes of ``source`` decorated with ``dataclass`` (bare, called, or as ``dataclasses.dataclass``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
                if name == "dataclass":
                    found.append(node.name)
    return found


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("@dataclass\nclass A: pass", ["A"]),
        ("@dataclass(frozen=True, slots=True)\nclass A: pass", ["A"]),
        ("@dataclasses.dataclass(kw_only=True)\nclass A: pass", ["A"]),
        ("def f():\n    @dataclass\n    class Inner: pass", ["Inner"]),
        ("@record(frozen=True)\nclass A: pass", []),
        ("x = '@dataclass'\nclass A: pass", []),
    ],
)
def test_dataclass_classes_finds_every_spelling(source: str, expected: list[str]) -> None:
    assert dataclass_classes(source) == expected


def test_no_module_of_the_package_defines_a_dataclass_outside_the_allow_list() -> None:
    found = {
        (path.relative_to(PACKAGE).as_posix(), name)
        for path in sorted(PACKAGE.rglob("*.py"))
        for name in dataclass_classes(path.read_text())
    }
    assert found - set(ALLOWED) == set(), "use gpuready.record.record (or add the class to ALLOWED with why)"
    assert set(ALLOWED) - found == set(), "an allowed class is no longer a dataclass: remove it from ALLOWED"
