"""Every values key path gpuready sets exists in the real chart's ``values.yaml``, apart from keys under maps the
chart documents as free-form; and the chart facts gpuready pins are the packaged charts'.

Neither chart has a values schema that refuses unknown keys (shared reference nvidia.md section 2), so a
misspelled or wrong-chart key (section 8, item 3: ``nfd.worker.*`` in the operator chart) is silently ignored by
Helm; this test is what catches it. Sources (read from ``../shared/reference/upstream/``, provenance in its
``SOURCES.md``): the released packages ``gpu-operator-v26.7.0.tgz`` (``values.yaml``, ``Chart.yaml`` and the
bundled node-feature-discovery 0.19.0 subchart's ``values.yaml``) and ``nvidia-device-plugin-0.20.0.tgz``
(``values.yaml``, ``Chart.yaml``; it bundles the identical NFD subchart file).

Rules of the walk: every leaf of the release values (a scalar, a list, or an empty mapping) must be a key path of
the chart's ``values.yaml``; a path under the chart's NFD key (``node-feature-discovery.`` in the operator chart,
``nfd.`` in the plugin chart) is looked up in the NFD subchart's ``values.yaml`` instead; the walk stops at the
free-form maps of ``Chart.free_form`` (whose own path must exist and be a map); a path the chart reads
only as a dependency ``condition`` in its packaged ``Chart.yaml`` (the plugin chart's ``nfd.enabled``) is accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

from gpuready.core.gpu_stack import extra_values
from gpuready.core.gpu_stack.charts import Chart
from gpuready.core.gpu_stack.kinds import CHARTS
from tests.gpu_stack.stack_scenarios import SCENARIOS, Scenario
from tests.upstream import upstream_text


def _load(relative: str) -> Any:
    return yaml.safe_load(upstream_text(relative))


CHART_VALUES: dict[str, Mapping[str, Any]] = {
    "gpu-operator": _load("gpu-operator/values.v26.7.0.packaged.yaml"),
    "device-plugin": _load("k8s-device-plugin/values.v0.20.0.packaged.yaml"),
}
CHART_YAML: dict[str, Mapping[str, Any]] = {
    "gpu-operator": _load("gpu-operator/Chart.v26.7.0.packaged.yaml"),
    "device-plugin": _load("k8s-device-plugin/Chart.v0.20.0.packaged.yaml"),
}
NFD_VERSION = "0.19.0"
NFD_VALUES: Mapping[str, Any] = _load(f"gpu-operator/node-feature-discovery-subchart-{NFD_VERSION}.values.yaml")
"""The NFD subchart's defaults; the same file is bundled in both charts (shared reference upstream/SOURCES.md)."""

REPLACED_TOLERATION_LISTS: dict[str, tuple[str, ...]] = {
    "gpu-operator": ("daemonsets.tolerations", "node-feature-discovery.worker.tolerations"),
    "device-plugin": ("tolerations", "nfd.worker.tolerations"),
}
"""Lists gpuready sets that replace a chart default (Helm never merges lists)."""
GPU_TAINT_KEY = "nvidia.com/gpu"


# --- the walk --------------------------------------------------------------------------------------------------------

_MISSING = object()


def _lookup(tree: Any, path: Sequence[str]) -> Any:
    node = tree
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return _MISSING
        node = node[part]
    return node


def chart_default(chart: Chart, path: str) -> Any:
    """The chart's default at ``path`` (``_MISSING`` when the chart has no such key); NFD paths in the subchart."""
    parts = path.split(".")
    if parts[0] == chart.nfd_key:
        return _lookup(NFD_VALUES, parts[1:])
    return _lookup(CHART_VALUES[chart.kind], parts)


def parent_default(chart: Chart, path: str) -> Any:
    """The default in the chart's own ``values.yaml`` (which overrides the subchart's for NFD paths)."""
    return _lookup(CHART_VALUES[chart.kind], path.split("."))


def dependency_conditions(chart: Chart) -> set[str]:
    """Every value path the packaged ``Chart.yaml`` names in a dependency ``condition``."""
    conditions: set[str] = set()
    for dependency in CHART_YAML[chart.kind].get("dependencies", []):
        conditions.update(c.strip() for c in str(dependency.get("condition", "")).split(",") if c.strip())
    return conditions


@dataclass(frozen=True)
class Walk:
    leaves: dict[str, Any]
    """Leaf path -> the value gpuready sets there."""
    free_form: dict[str, Any]
    """Free-form map path -> the map gpuready sets (not walked further)."""


def walk(chart: Chart, values: Mapping[str, Any]) -> Walk:
    free_form_paths = set(chart.free_form)
    leaves: dict[str, Any] = {}
    free_form: dict[str, Any] = {}

    def visit(node: Mapping[str, Any], prefix: str) -> None:
        for key, value in node.items():
            assert isinstance(key, str), f"{prefix}{key!r}: values keys are strings"
            path = prefix + key
            if path in free_form_paths:
                free_form[path] = value
            elif isinstance(value, Mapping) and value:
                visit(value, path + ".")
            else:
                leaves[path] = value

    visit(values, "")
    return Walk(leaves, free_form)


def _under_null(chart: Chart, path: str) -> bool:
    """Whether a proper prefix of ``path`` defaults to null in the chart (a slot the chart leaves to the user)."""
    parts = path.split(".")
    return any(chart_default(chart, ".".join(parts[:n])) is None for n in range(1, len(parts)))


def key_problems(chart: Chart, values: Mapping[str, Any], *, allow_under_null: bool = False) -> list[str]:
    """Every path of ``values`` the chart does not read, or reads as another kind of value.

    ``allow_under_null`` accepts keys below a null default (e.g. NFD's ``worker.config``, the nfd-worker config
    file); only the charts' own overrides need it, gpuready sets nothing there."""
    found = walk(chart, values)
    conditions = dependency_conditions(chart)
    problems: list[str] = []
    for path, value in found.leaves.items():
        default = chart_default(chart, path)
        if default is _MISSING:
            if path in conditions and isinstance(value, bool):
                continue
            if allow_under_null and _under_null(chart, path):
                continue
            problems.append(f"{chart.name}: {path!r} is not a key of the chart's values.yaml")
        elif isinstance(default, Mapping) and default and not isinstance(value, Mapping):
            problems.append(f"{chart.name}: {path!r} is a map of keys in values.yaml, gpuready sets {value!r}")
        elif isinstance(value, list) and default is not None and not isinstance(default, list):
            problems.append(f"{chart.name}: {path!r} is not a list in values.yaml ({default!r})")
    for path, value in found.free_form.items():
        default = chart_default(chart, path)
        if not isinstance(default, Mapping):
            problems.append(f"{chart.name}: free-form map {path!r} is not a map in values.yaml ({default!r})")
        if not isinstance(value, Mapping):
            problems.append(f"{chart.name}: gpuready sets free-form map {path!r} to a non-map {value!r}")
    return problems


def _values(scenario: Scenario) -> Mapping[str, Any]:
    release = scenario.plan().release
    assert release is not None
    assert release.chart == CHARTS[scenario.kind]
    return release.values


def test_there_are_many_plans_over_every_cloud_and_chart() -> None:
    assert len(SCENARIOS) >= 40
    assert {(s.pool_set.cloud, s.kind) for s in SCENARIOS} == {
        ("eks", "gpu-operator"), ("eks", "device-plugin"), ("aks", "gpu-operator"), ("aks", "device-plugin"),
        ("gke", "gpu-operator"),
    }  # fmt: skip


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_every_values_key_gpuready_sets_is_a_chart_key(scenario: Scenario) -> None:
    assert key_problems(CHARTS[scenario.kind], _values(scenario)) == []


def test_the_plans_reach_every_values_branch() -> None:
    """The scenarios set every key path the value builders can set (so the walk above saw them all)."""
    reached: dict[str, set[str]] = {"gpu-operator": set(), "device-plugin": set()}
    for scenario in SCENARIOS:
        found = walk(CHARTS[scenario.kind], _values(scenario))
        reached[scenario.kind] |= {*found.leaves, *found.free_form}
    assert reached["gpu-operator"] == {
        "driver.enabled", "toolkit.enabled", "toolkit.env", "operator.runtimeClass", "daemonsets.tolerations",
        "nfd.enabled", "node-feature-discovery.worker.nodeSelector", "node-feature-discovery.worker.tolerations",
        "devicePlugin.config.name", "devicePlugin.config.default", "mig.strategy", "migManager.enabled",
        "migManager.env", "migManager.config.name", "migManager.config.default", "operator.upgradeCRD",
        "driver.upgradePolicy.autoUpgrade", "driver.upgradePolicy.maxParallelUpgrades",
        "driver.upgradePolicy.maxUnavailable", "driver.upgradePolicy.gpuPodDeletion.force",
        "driver.upgradePolicy.gpuPodDeletion.timeoutSeconds", "driver.upgradePolicy.gpuPodDeletion.deleteEmptyDir",
        "driver.upgradePolicy.drain.enable",
    }  # fmt: skip
    assert reached["device-plugin"] == {
        "tolerations", "gfd.enabled", "nfd.enabled", "nfd.worker.nodeSelector", "nfd.worker.tolerations",
        "migStrategy", "config.name", "config.default",
        "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms",
    }  # fmt: skip


def test_the_plans_take_every_value_of_each_switch() -> None:
    seen: dict[tuple[str, str], set[object]] = {}
    for scenario in SCENARIOS:
        for path, value in walk(CHARTS[scenario.kind], _values(scenario)).leaves.items():
            if isinstance(value, (bool, str)) and not path.endswith(".name"):
                seen.setdefault((scenario.kind, path), set()).add(value)
    assert seen[("gpu-operator", "driver.enabled")] == {True, False}
    assert seen[("gpu-operator", "nfd.enabled")] == {True, False}
    assert seen[("gpu-operator", "migManager.enabled")] == {True, False}
    assert seen[("gpu-operator", "mig.strategy")] == {"single", "mixed"}
    assert seen[("device-plugin", "gfd.enabled")] == {True, False}
    assert seen[("device-plugin", "nfd.enabled")] == {False}


# --- the walk's own rules, on the chart files ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_free_form_maps_are_maps_in_the_chart(kind: str) -> None:
    chart = CHARTS[kind]
    for path in chart.free_form:
        default = chart_default(chart, path)
        assert isinstance(default, Mapping), f"{chart.name}: {path!r} is not a map in values.yaml ({default!r})"


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_what_the_chart_sets_under_its_nfd_key_is_an_nfd_subchart_key(kind: str) -> None:
    """The bundled subchart file is the one the NFD paths are checked against: what each chart itself sets under
    its NFD key are keys of it (below NFD's null ``worker.config``, the nfd-worker config file, apart)."""
    chart = CHARTS[kind]
    overrides = CHART_VALUES[kind][chart.nfd_key]
    assert isinstance(overrides, Mapping) and "worker" in overrides
    assert key_problems(chart, {chart.nfd_key: overrides}, allow_under_null=True) == []
    assert key_problems(chart, {chart.nfd_key: {"worker": {"noSuchKey": 1}}}, allow_under_null=True) != []


@pytest.mark.parametrize(
    ("kind", "values", "bad_path"),
    [
        # nvidia.md section 8, item 3: the other chart's NFD key, and AMD's toggle.
        ("gpu-operator", {"nfd": {"worker": {"nodeSelector": {"a": "b"}}}}, "nfd.worker.nodeSelector"),
        ("gpu-operator", {"nodeFeatureDiscovery": {"worker": {"tolerations": []}}}, "nodeFeatureDiscovery.worker"),
        ("gpu-operator", {"node-feature-discovery": {"enabled": False}}, "node-feature-discovery.enabled"),
        ("device-plugin", {"node-feature-discovery": {"worker": {"tolerations": []}}}, "node-feature-discovery"),
        # Section 2: no daemonsets.nodeSelector; section 8, items 4 and 6: removed keys.
        ("gpu-operator", {"daemonsets": {"nodeSelector": {"a": "b"}}}, "daemonsets.nodeSelector"),
        ("gpu-operator", {"operator": {"defaultRuntime": "containerd"}}, "operator.defaultRuntime"),
        ("gpu-operator", {"psp": {"enabled": True}}, "psp.enabled"),
        # Section 8, item 9: a config-file key is not a chart value.
        ("device-plugin", {"config": {"renameByDefault": True}}, "config.renameByDefault"),
        # A condition is accepted only where the chart's Chart.yaml names it, and only as a boolean.
        ("device-plugin", {"gfd": {"nfd": {"enabled": True}}}, "gfd.nfd.enabled"),
        ("device-plugin", {"nfd": {"enabled": "false"}}, "nfd.enabled"),
        # A map of chart keys set to a scalar; a free-form map set to a scalar.
        ("gpu-operator", {"migManager": {"config": "custom"}}, "migManager.config"),
        ("device-plugin", {"config": {"map": "x"}}, "config.map"),
    ],
)
def test_the_walk_refuses_wrong_keys(kind: str, values: dict[str, Any], bad_path: str) -> None:
    """Negative controls: keys blogs and other charts use, which these charts ignore; refused by this walk and by
    the check gpuready runs on ``gpuStack.values`` (``extra_values.key_problems``, on the chart facts)."""
    problems = key_problems(CHARTS[kind], values)
    assert problems and all(bad_path in p for p in problems), problems
    chart = CHARTS[kind]
    found = extra_values.key_problems(chart, chart.version, values, "gpuStack.values")
    assert found and all(p.path.startswith("gpuStack.values." + bad_path.split(".", maxsplit=1)[0]) for p in found), (
        found
    )


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_gpuready_values_pass_the_check_it_runs_on_user_values(scenario: Scenario) -> None:
    chart = CHARTS[scenario.kind]
    assert extra_values.key_problems(chart, chart.version, _values(scenario), "values") == []


def test_the_plugin_charts_nfd_enabled_is_only_a_dependency_condition() -> None:
    """``nfd.enabled`` is in no values.yaml of the plugin chart, but its Chart.yaml reads it as a condition."""
    chart = CHARTS["device-plugin"]
    assert chart_default(chart, "nfd.enabled") is _MISSING
    assert parent_default(chart, "nfd.enabled") is _MISSING
    assert "nfd.enabled" in dependency_conditions(chart)
    assert key_problems(chart, {"nfd": {"enabled": False}}) == []


# --- pinned chart facts ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_pinned_chart_name_and_version_are_the_packaged_charts(kind: str) -> None:
    chart, packaged = CHARTS[kind], CHART_YAML[kind]
    assert chart.kind == kind
    assert packaged["name"] == chart.name
    assert packaged["version"] == chart.version
    assert packaged["version"].startswith("v") == (chart.version_prefix == "v")
    assert chart.version.removeprefix(chart.version_prefix)[:1].isdigit()


def test_the_operator_version_has_a_leading_v_and_the_plugin_version_none() -> None:
    assert CHART_YAML["gpu-operator"]["version"] == "v26.7.0"
    assert CHART_YAML["device-plugin"]["version"] == "0.20.0"


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_nfd_key_is_the_charts_nfd_dependency(kind: str) -> None:
    """The operator bundles NFD unaliased, the plugin aliased ``nfd``; both at the bundled subchart's version."""
    chart = CHARTS[kind]
    (nfd,) = [d for d in CHART_YAML[kind]["dependencies"] if d["name"] == "node-feature-discovery"]
    assert nfd.get("alias", nfd["name"]) == chart.nfd_key
    assert nfd["version"] == NFD_VERSION


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_nfd_existing_turns_off_the_nfd_dependency_by_its_condition(kind: str) -> None:
    """With ``nfd: existing`` gpuready sets ``nfd.enabled: false``: the first path of the NFD dependency's
    condition, so it wins over the next (the plugin chart's ``gfd.enabled``), and nothing under the NFD key."""
    chart = CHARTS[kind]
    (nfd,) = [d for d in CHART_YAML[kind]["dependencies"] if d["name"] == "node-feature-discovery"]
    first_condition = nfd["condition"].split(",")[0].strip()
    scenarios = [s for s in SCENARIOS if s.kind == kind and s.spec.get("nfd") == "existing" and s.spec.get("gfd", True)]
    assert scenarios
    for scenario in scenarios:
        leaves = walk(chart, _values(scenario)).leaves
        assert leaves[first_condition] is False, scenario.id
        assert not [p for p in leaves if p.startswith(chart.nfd_key + ".") and p != first_condition], scenario.id


def test_the_charts_default_namespaces_are_never_default() -> None:
    assert all(chart.namespace != "default" for chart in CHARTS.values())


# --- replaced toleration lists (that every pool taint is tolerated is checked on the rendered objects:
# tests/gpu_stack/test_rendered_releases.py) -------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(CHARTS))
def test_the_replaced_lists_tolerate_the_gpu_taint_by_default(kind: str) -> None:
    """Why the replacement must keep it: every chart default gpuready replaces tolerates ``nvidia.com/gpu``."""
    chart = CHARTS[kind]
    for path in REPLACED_TOLERATION_LISTS[kind]:
        default = parent_default(chart, path)
        assert isinstance(default, list), path
        assert any(t["key"] == GPU_TAINT_KEY and t["effect"] == "NoSchedule" for t in default), path


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.kind == "device-plugin"], ids=lambda s: s.id)
def test_the_plugin_keeps_the_charts_critical_addons_toleration(scenario: Scenario) -> None:
    default = parent_default(CHARTS["device-plugin"], "tolerations")
    critical = [t for t in default if t["key"] == "CriticalAddonsOnly"]
    assert critical
    assert all(t in _values(scenario)["tolerations"] for t in critical)
