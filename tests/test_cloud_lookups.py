"""Outside the cloud registry and the cloud packages, a cloud's profile is looked up by name only where a name comes
in: every ``cloud_profile(...)`` call is a row of ``LOOKUPS`` with its reason, and there are at most
``MOST_LOOKUPS`` of them. The table only shrinks: a call without a row fails, and so does a row whose call is gone.

Everything else reads the profile it was handed (issue #25, item 3): a pool's (``spec.profile``), the stack's
(``StackSettings.profile``, ``GpuStackPlan.profile``), a read pool's (``PoolFacts.reading`` / ``catalog``), a
cluster target's (``ClusterTarget.profile``), or every profile in turn (``cloud_profiles()``).
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from gpuready.core.clouds.registry import cloud_names
from tests.ast_source import parse

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "components" / "gpuready"
SKIPPED = (*(f"{name}/" for name in cloud_names()), "core/clouds/registry.py")
"""The cloud packages (a cloud may ask for its own profile) and the registry itself."""

LOOKUPS: dict[tuple[str, str], str] = {
    ("core/specs.py", "GpuPoolSpec.__post_init__"): "a pool's `cloud` (pool key, component input), resolved once",
    ("core/stack_settings.py", "parse_stack_settings"): "validation of `gpuready:cloud`, resolved once",
    ("core/stack_settings.py", "StackSettings.__post_init__"): "settings built by hand, without a parsed profile",
    ("cli/new_command.py", "run"): "`gpuready new --cloud`, resolved once for the scaffold",
    ("core/cluster_kubeconfig.py", "ClusterTarget.__post_init__"): "a target's cloud (stack or `--cloud`), once",
    ("core/cluster_kubeconfig.py", "ClusterTarget.from_keys"): "checks a target's cloud keys before it exists",
    ("core/capacity/pool_facts.py", "cloud_pool"): (
        "a cloud reader's own cloud, once per read (the reader is held by the profile: it cannot import it)"
    ),
    ("core/capacity/karpenter_reader.py", "read_node_pool"): "a NodePool's cloud, named by its instance type's row",
    ("core/capacity/rules.py", "is_elastic_key"): "a pool entry's minSize rule, before its spec (and profile) exist",
    ("core/capacity/registry.py", "provisioner_named"): "the capacity registry's by-name answer (the tests')",
    ("pool_outputs.py", "require_provisioner"): "names an elastic component's cloud for a pool of another cloud",
}
MOST_LOOKUPS = 11
"""Look-ups by name outside the registry and the cloud packages; 28 before the stack's cloud was resolved once."""


def _calls(tree: ast.AST, scope: str = "") -> Iterator[str]:
    """The enclosing ``Class.function`` of every ``cloud_profile(...)`` call in ``tree``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            yield from _calls(node, f"{scope}.{node.name}" if scope else node.name)
            continue
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "cloud_profile":
                yield scope or "<module>"
        yield from _calls(node, scope)


def lookups() -> Counter[tuple[str, str]]:
    found: Counter[tuple[str, str]] = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative.startswith(SKIPPED):
            continue
        for scope in _calls(parse(path.read_text(encoding="utf-8"))):
            found[relative, scope] += 1
    return found


def test_every_look_up_by_name_has_a_reason() -> None:
    found = lookups()
    assert set(found) - set(LOOKUPS) == set(), "read the profile you were handed, or add a row with its reason"
    assert set(LOOKUPS) - set(found) == set(), "a look-up is gone: remove its row and lower MOST_LOOKUPS"


def test_the_look_ups_by_name_stay_few() -> None:
    assert sum(lookups().values()) <= MOST_LOOKUPS
    assert len(LOOKUPS) <= MOST_LOOKUPS


def test_the_scanner_sees_calls_and_their_scope() -> None:
    source = (
        "def f():\n    return cloud_profile('x')\n"
        "class C:\n    def m(self):\n        return registry.cloud_profile(self.cloud)\n"
        "def g():\n    return cloud_profiles()\n"
    )
    assert list(_calls(parse(source))) == ["f", "C.m"]
