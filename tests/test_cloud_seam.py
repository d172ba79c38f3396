"""The cloud seam holds: outside a cloud's own package nothing compares, or keys a mapping by, a cloud's name, and
nothing names a cloud in an identifier or a resource-type token, except the files of ``NAMING_EXEMPT`` (each with
its reason; the table only shrinks: an exempt file that no longer names a cloud fails too).

What differs by cloud lives in ``components/gpuready/<cloud>/`` behind ``gpuready.core.clouds.profile.CloudProfile``,
registered by ``gpuready.plugins`` and found through ``gpuready.core.clouds.registry``; everything else asks the
profile.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import cloud_names as registered_clouds
from gpuready.core.clouds.registry import cloud_profile, cloud_profiles
from tests.ast_source import parse

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("components", "policies", "stacks")
CLOUD_PACKAGES = tuple(f"components/gpuready/{name}/" for name in registered_clouds())
PLUGINS = "components/gpuready/plugins.py"
"""The one module that names every cloud: it registers every cloud, with its profile's loader (``CLOUD_ENTRIES``)."""


def _is_cloud_name(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and node.value in registered_clouds():
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_cloud_name(item) for item in node.elts)
    return False


def cloud_branches(source: str) -> Iterator[tuple[int, str]]:
    """(line, what) for every comparison with a cloud's name and every mapping keyed by one in ``source``."""
    for node in ast.walk(parse(source)):
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


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_TYPE_TOKEN = re.compile(r"^[a-z][a-z0-9-]*:[A-Za-z0-9/._-]*:[A-Za-z0-9]+\Z")
PROVIDERS = ("aws", "azure-native", "gcp")
"""The clouds' Pulumi providers: a type token of theirs (``aws:eks/nodeGroup:NodeGroup``) names a cloud."""


def _words(name: str) -> list[str]:
    """The lowercase words of an identifier, dotted path or type token (``EksGpuNodePool`` -> eks, gpu, node, pool)."""
    return [word.lower() for part in re.split(r"[._/:-]", name) for word in _WORD.findall(part)]


def _names(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.lineno, node.id
        elif isinstance(node, ast.Attribute):
            yield node.lineno, node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.lineno, node.name
        elif isinstance(node, ast.arg | ast.keyword):
            yield node.lineno, node.arg or ""
        elif isinstance(node, ast.alias):
            yield node.lineno, node.asname or node.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _TYPE_TOKEN.match(node.value):
            yield node.lineno, node.value


def cloud_names(source: str) -> Iterator[tuple[int, str]]:
    """(line, name) for every identifier, import path or resource-type token in ``source`` that names a cloud."""
    for line, name in sorted(set(_names(parse(source)))):
        words = _words(name)
        if any(word in registered_clouds() for word in words) or name.startswith(tuple(f"{p}:" for p in PROVIDERS)):
            yield line, name


NAMING_EXEMPT: Mapping[str, str] = {}
"""Files outside the cloud packages that still name a cloud, and why (what would move them)."""


def _scanned_files() -> list[Path]:
    return sorted(path for top in SCANNED for path in (ROOT / top).rglob("*.py") if ".venv" not in path.parts)


def test_no_code_outside_a_cloud_package_branches_on_the_cloud() -> None:
    found = []
    for path in _scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(CLOUD_PACKAGES) or relative == PLUGINS:
            continue
        found += [f"{relative}:{line}: {what}" for line, what in cloud_branches(path.read_text())]
    assert not found, "ask the cloud profile (gpuready.core.clouds) instead:\n" + "\n".join(found)


def test_no_code_outside_a_cloud_package_names_a_cloud() -> None:
    found, still = [], set()
    for path in _scanned_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(CLOUD_PACKAGES) or relative == PLUGINS:
            continue
        names = [f"{relative}:{line}: {name}" for line, name in cloud_names(path.read_text())]
        if relative not in NAMING_EXEMPT:
            found += names
        elif names:
            still.add(relative)
    assert not found, "move it into the cloud's package, behind the cloud profile:\n" + "\n".join(found)
    assert sorted(set(NAMING_EXEMPT) - still) == [], "no longer names a cloud: drop it from NAMING_EXEMPT"


@pytest.mark.parametrize(
    ("snippet", "names"),
    [
        ("from gpuready.core import gke_zones", ["gke_zones"]),
        ("def to_eks_taint(t): pass", ["to_eks_taint"]),
        ("x = scheduling.AKS_SPOT_TAINT", ["AKS_SPOT_TAINT"]),
        ("class EksGpuNodePool: pass", ["EksGpuNodePool"]),
        ("f(gke_location=1)", ["gke_location"]),
        ('T = "aws:eks/nodeGroup:NodeGroup"', ["aws:eks/nodeGroup:NodeGroup"]),
        ('T = "azure-native:containerservice:AgentPool"', ["azure-native:containerservice:AgentPool"]),
        (
            'T = "kubernetes:karpenter.azure.com/v1beta1:AKSNodeClass"',
            ["kubernetes:karpenter.azure.com/v1beta1:AKSNodeClass"],
        ),
        ('T = "gpuready:index:GkeGpuNodePool"', ["gpuready:index:GkeGpuNodePool"]),
        ("x = cloud_profile(spec.cloud).image_name(image)", []),
        ("speaks = tokens", []),
        ('message = "GKE installs the driver"', []),
        ('T = "kubernetes:core/v1:ConfigMap"', []),
    ],
)
def test_the_naming_scan_catches_identifiers_and_type_tokens(snippet: str, names: list[str]) -> None:
    assert [name for _, name in cloud_names(snippet)] == names


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


def test_every_cloud_has_its_profile_registered_under_its_name() -> None:
    assert [p.name for p in cloud_profiles()] == list(registered_clouds())
    for name in registered_clouds():
        assert cloud_profile(name) is cloud_profile(name)
        assert cloud_profile(name).images, name


def test_an_unknown_cloud_is_a_clear_key_error() -> None:
    with pytest.raises(KeyError, match="no cloud 'ecs'; known: eks, aks, gke"):
        cloud_profile("ecs")


def test_loading_a_profile_loads_no_pulumi_sdk() -> None:
    code = (
        "import sys; import gpuready.plugins; from gpuready.core.clouds.registry import cloud_profiles; "
        "cloud_profiles(); "
        "print(sorted(m for m in sys.modules if m == 'pulumi' or m.startswith(('pulumi.', 'pulumi_'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
