"""The ``components`` facade: every public name resolves, and importing the package loads no Pulumi SDK."""

from __future__ import annotations

import subprocess
import sys

import pytest

import components


def test_all_lists_exactly_the_lazy_exports() -> None:
    assert sorted(components.__all__) == sorted(components._EXPORTS)


@pytest.mark.parametrize("name", components.__all__)
def test_every_public_name_resolves_to_its_module(name: str) -> None:
    value = getattr(components, name)
    assert value.__name__ == name
    assert value.__module__ == components._EXPORTS[name]


def test_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        _ = components.Nope


def test_importing_the_package_loads_no_pulumi_sdk() -> None:
    code = "import sys, components; print(sorted(m for m in sys.modules if m.split('.')[0].startswith('pulumi')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
