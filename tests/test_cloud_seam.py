"""The cloud seam holds: outside a cloud's own package nothing compares, or keys a mapping by, a cloud's name.

What differs by cloud lives in ``components/gpuready/<cloud>/`` behind ``gpuready.core.clouds.profile.CloudProfile``,
found through ``gpuready.core.clouds.registry``; everything else asks the profile.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import CLOUDS, ENTRIES, cloud_profile, cloud_profiles

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("components", "policies", "stacks")
CLOUD_PACKAGES = tuple(f"components/gpuready/{name}/" for name in CLOUDS)
REGISTRY = "components/gpuready/core/clouds/registry.py"
"""The one place that names every cloud: its entries."""


def _is_cloud_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and node.value in CLOUDS:
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_cloud_name(item) for item in node.elts)
    return False


def cloud_branches(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every comparison with a cloud's name and every mapping keyed by one in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_is_cloud_name(side) for side in sides):
                yield node.lineno, "compares with a cloud's name"
        elif isinstance(node, ast.Dict) and any(k is not None and _is_cloud_name(k) for k in node.keys):
            yield node.lineno, "keys a mapping by a cloud's name"
        elif isinstance(node, ast.Match) and any(
            isinstance(case.pattern, ast.MatchValue) and _is_cloud_name(case.pattern.value) for case in node.cases
        ):
            yield node.lineno, "matches a cloud's name"


def _scanned_files() -> list[Path]:
    return sorted(path for top in SCANNED for path in (ROOT / top).rglob("*.py") if ".venv" not in path.parts)


def test_no_code_outside_a_cloud_package_branches_on_the_cloud() -> None:
    found = []
    for path in _scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(CLOUD_PACKAGES) or relative == REGISTRY:
            continue
        found += [f"{relative}:{line}: {what}" for line, what in cloud_branches(path.read_text())]
    assert not found, "ask the cloud profile (gpuready.core.clouds) instead:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("snippet", "caught"),
    [
        ('if spec.cloud == "gke":\n    pass', True),
        ('if "eks" != cloud:\n    pass', True),
        ('x = cloud in ("gke", "aks")', True),
        ('x = p.cloud not in ["eks"]', True),
        ('table = {"eks": 1, "aks": 2}', True),
        ("x = a.cloud != b.cloud", False),
        ('match cloud:\n    case "aks":\n        pass', True),
        ("x = cloud_profile(spec.cloud).rotates_names", False),
        ("x = cloud in CLOUDS", False),
        ('message = f"pool {p.name!r} is for {p.cloud}"', False),
        ('x = image == "bottlerocket"', False),
        ('x = words[:2] == ["eks", "get-token"]', False),
    ],
)
def test_the_scan_catches_each_form(snippet: str, caught: bool) -> None:
    assert bool(list(cloud_branches(snippet))) is caught


def test_every_registry_entry_loads_its_profile_under_its_name() -> None:
    assert tuple(ENTRIES) == CLOUDS
    assert [p.name for p in cloud_profiles()] == list(CLOUDS)
    for name in CLOUDS:
        assert cloud_profile(name) is cloud_profile(name)
        assert cloud_profile(name).images, name


def test_an_unknown_cloud_is_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match="no cloud 'ecs'; known: eks, aks, gke"):
        cloud_profile("ecs")


def test_loading_a_profile_loads_no_pulumi_sdk() -> None:
    code = (
        "import sys; from gpuready.core.clouds.registry import cloud_profiles; cloud_profiles(); "
        "print(sorted(m for m in sys.modules if m == 'pulumi' or m.startswith(('pulumi.', 'pulumi_'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
