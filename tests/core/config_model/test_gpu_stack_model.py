"""``gpuready:gpuStack``: parsed strictly (bad_gpu_stacks.yaml), valid short and long forms, and through the stack
settings, where it is YAML text, defaults to ``none`` and is checked against every pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core.config_model.gpu_stack_model import GPU_STACK_KEYS
from gpuready.core.config_model.parsers import parse_gpu_stack
from gpuready.core.gpu_stack import stack_rules
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health.agent import HealthSpec
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError, Problem

CORPUS = Path(__file__).with_name("bad_gpu_stacks.yaml")
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]
IDS = [case["id"] for case in CASES]

EKS = {
    "cloud": "eks",
    "clusterName": "ml",
    "eksNodeRoleArn": "arn:aws:iam::123456789012:role/n",
    "eksSubnetIds": ["subnet-0123456789abcdef0"],
    "nodePools": "- {name: l4, instanceType: g6.xlarge, minSize: 0, maxSize: 1}",
}
"""Valid EKS stack settings with one AL2023 pool; each test sets ``gpuStack``."""


def test_corpus_ids_are_unique_and_kebab_case() -> None:
    assert len(IDS) == len(set(IDS))
    assert all(i == i.lower() and " " not in i and "_" not in i for i in IDS)
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_is_well_formed(case: dict[str, Any]) -> None:
    assert set(case) == {"id", "gpuStack", "expect"}
    expect = case["expect"]
    assert {"path", "words", "value"} <= set(expect) <= {"path", "words", "value", "allowed", "hint"}
    assert expect["path"] == "gpuStack" or expect["path"].startswith("gpuStack.")
    assert isinstance(expect["words"], str)
    assert expect["words"]


def _matches(problem: Problem, expect: dict[str, Any], prefix: str = "") -> bool:
    value = expect["value"]
    return (
        problem.path == prefix + expect["path"]
        and expect["words"] in problem.problem
        and problem.value == value
        and type(problem.value) is type(value)
        and (value is None or repr(value) in str(problem))
        and ("allowed" not in expect or list(problem.allowed) == expect["allowed"])
        and ("hint" not in expect or expect["hint"] in problem.hint)
    )


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_refused_by_the_parser(case: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_gpu_stack(case["gpuStack"])
    problems = raised.value.problems
    assert any(_matches(p, case["expect"]) for p in problems), [str(p) for p in problems]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_refused_in_the_stack_settings(case: dict[str, Any]) -> None:
    text = yaml.safe_dump(case["gpuStack"])
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**EKS, "gpuStack": text})
    problems = raised.value.problems
    assert any(_matches(p, case["expect"], "gpuready:") for p in problems), [str(p) for p in problems]


def test_every_problem_of_a_stack_in_one_error() -> None:
    """Once the keys and types are right, every value problem comes at once (like the pool parser: syntax first)."""
    raw = {"kind": "device-plugin", "namespace": "default", "chartVersion": "v0.20.0", "timeoutSeconds": 60,
           "migReboot": False, "repository": "http://x"}  # fmt: skip
    with pytest.raises(ConfigError) as raised:
        parse_gpu_stack(raw)
    assert sorted(p.path for p in raised.value.problems) == [
        "gpuStack.chartVersion",
        "gpuStack.migReboot",
        "gpuStack.namespace",
        "gpuStack.repository",
        "gpuStack.timeoutSeconds",
    ]


def test_type_problems_and_unknown_keys_are_reported_together() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_gpu_stack({"kind": "gpu-operator", "gfd": "no", "timeoutSeconds": "1h", "nfd": 1, "bogus": True})
    assert sorted(p.path for p in raised.value.problems) == [
        "gpuStack.bogus",
        "gpuStack.gfd",
        "gpuStack.nfd",
        "gpuStack.timeoutSeconds",
    ]


def test_parser_paths_follow_the_given_path() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_gpu_stack({"kind": "device-plugin", "namespace": "default"}, "stacks[2].gpuStack")
    assert [p.path for p in raised.value.problems] == ["stacks[2].gpuStack.namespace"]


# --- valid forms -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["gpu-operator", "device-plugin", "none", "external"])
def test_short_form_is_the_kind(kind: str) -> None:
    assert parse_gpu_stack(kind) == GpuStackSpec(kind=kind)
    assert parse_gpu_stack({"kind": kind}) == GpuStackSpec(kind=kind)


def test_long_form_operator() -> None:
    raw = {
        "kind": "gpu-operator",
        "namespace": "nvidia-gpu",
        "releaseName": "gpu",
        "chartVersion": "v26.3.3",
        "repository": "oci://registry.example.com/charts",
        "timeoutSeconds": 7200,
        "nfd": "existing",
        "gfd": True,
        "migReboot": False,
        "values": {"operator": {"repository": "registry.example.com/nvidia"}},
        "monitoring": False,
        "health": {"agent": "eks-node-monitoring-agent", "dcgm": "gpu-operator"},
    }
    assert set(raw) == set(GPU_STACK_KEYS) - {"clusterVersion"}  # the DRA driver's only (next test)
    assert parse_gpu_stack(raw) == GpuStackSpec(
        kind="gpu-operator",
        namespace="nvidia-gpu",
        release_name="gpu",
        chart_version="v26.3.3",
        repository="oci://registry.example.com/charts",
        timeout_seconds=7200,
        nfd="existing",
        gfd=True,
        mig_reboot=False,
        values={"operator": {"repository": "registry.example.com/nvidia"}},
        monitoring=False,
        health=HealthSpec(agent="eks-node-monitoring-agent", dcgm="gpu-operator"),
    )


def test_long_form_device_plugin() -> None:
    raw = {"kind": "device-plugin", "chartVersion": "0.19.3", "gfd": False, "timeoutSeconds": 900, "migReboot": True}
    assert parse_gpu_stack(raw) == GpuStackSpec(
        kind="device-plugin", chart_version="0.19.3", gfd=False, timeout_seconds=900
    )


def test_null_values_keep_the_defaults() -> None:
    assert parse_gpu_stack({"kind": "gpu-operator", "namespace": None, "timeoutSeconds": None}) == GpuStackSpec(
        kind="gpu-operator"
    )


# --- through the stack settings --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("gpu-operator", GpuStackSpec(kind="gpu-operator")),
        ("device-plugin", GpuStackSpec(kind="device-plugin")),
        ("{kind: device-plugin, gfd: false, nfd: existing}", GpuStackSpec(kind="device-plugin", gfd=False,
                                                                           nfd="existing")),
        ("kind: gpu-operator\nnamespace: nvidia\ntimeoutSeconds: 1800\n",
         GpuStackSpec(kind="gpu-operator", namespace="nvidia", timeout_seconds=1800)),
        ("external", GpuStackSpec(kind="external")),
    ],
)  # fmt: skip
def test_stack_settings_read_the_yaml_text(text: str, expected: GpuStackSpec) -> None:
    assert parse_stack_settings({**EKS, "gpuStack": text}).gpu_stack == expected


def test_stack_settings_accept_an_already_parsed_mapping() -> None:
    settings = parse_stack_settings({**EKS, "gpuStack": {"kind": "gpu-operator", "migReboot": False}})
    assert settings.gpu_stack == GpuStackSpec(kind="gpu-operator", mig_reboot=False)


@pytest.mark.parametrize("absent", [{}, {"gpuStack": ""}, {"gpuStack": None}])
def test_absent_gpu_stack_is_none_and_refuses_an_al2023_pool(absent: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**EKS, **absent})
    (problem,) = raised.value.problems
    assert problem.path == "gpuready:gpuStack.kind"
    assert "pool 'l4'" in problem.problem
    assert problem.value == "none"
    assert "gpu-operator" in problem.hint
    assert "device-plugin" in problem.hint


def test_absent_gpu_stack_is_none_for_pools_with_their_own_plugin() -> None:
    bottlerocket = "- {name: br, instanceType: g6.xlarge, minSize: 0, maxSize: 1, image: bottlerocket}"
    settings = parse_stack_settings({**EKS, "nodePools": bottlerocket})
    assert settings.gpu_stack == GpuStackSpec(kind="none")
    gke = {"cloud": "gke", "clusterName": "ml", "gkeLocation": "us-central1-a",
           "nodePools": "- {name: l4, instanceType: g2-standard-4, minSize: 0, maxSize: 1}"}  # fmt: skip
    assert parse_stack_settings(gke).gpu_stack == GpuStackSpec(kind="none")


def test_stack_settings_check_the_stack_against_every_pool() -> None:
    pools = (
        "- {name: l4, instanceType: g6.xlarge, minSize: 0, maxSize: 1}\n"
        "- {name: br, instanceType: g6.xlarge, minSize: 0, maxSize: 1, image: bottlerocket}\n"
        "- {name: mps, instanceType: g6.xlarge, minSize: 0, maxSize: 1, sharing: {mode: mps, replicas: 2}}\n"
    )
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**EKS, "nodePools": pools, "gpuStack": "{kind: device-plugin, gfd: false}"})
    problems = raised.value.problems
    assert sorted((p.path, p.value) for p in problems) == [
        ("gpuready:gpuStack.gfd", False),
        ("gpuready:gpuStack.kind", "device-plugin"),
    ]
    assert any("pool 'br'" in p.problem for p in problems)
    assert any("pool 'mps'" in p.problem for p in problems)


def test_stack_settings_report_gpu_stack_problems_with_the_others() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**EKS, "clusterName": "", "gpuStack": "{kind: gpu-operator, timeoutSeconds: 60}"})
    assert sorted(p.path for p in raised.value.problems) == ["gpuready:clusterName", "gpuready:gpuStack.timeoutSeconds"]


def test_stack_settings_refuse_invalid_yaml() -> None:
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings({**EKS, "gpuStack": "{kind: gpu-operator"})
    (problem,) = raised.value.problems
    assert problem.path == "gpuready:gpuStack"
    assert "is not valid YAML" in problem.problem


def test_the_stack_rules_run_once_and_the_settings_carry_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parsing the settings plans the GPU stack once; the program registers and exports that plan as is."""
    calls: list[int] = []
    real = stack_rules.stack_problems

    def counting(*args: Any) -> list[Problem]:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(stack_rules, "stack_problems", counting)
    settings = parse_stack_settings({**EKS, "gpuStack": "gpu-operator"})
    assert len(calls) == 1
    plan = settings.planned_gpu_stack
    assert plan is settings.gpu_stack_plan
    assert plan.spec == settings.gpu_stack
    assert plan.release is not None
    assert len(calls) == 1


def test_long_form_dra_driver() -> None:
    raw = {"kind": "dra-driver", "clusterVersion": "v1.34.2-eks-1a2b3c", "namespace": "dra", "timeoutSeconds": 1800}
    spec = parse_gpu_stack(raw)
    assert spec == GpuStackSpec(
        kind="dra-driver", cluster_version="v1.34.2-eks-1a2b3c", namespace="dra", timeout_seconds=1800
    )
    assert (spec.chart.name, spec.effective_version, spec.effective_namespace) == (
        "dra-driver-nvidia-gpu",
        "0.4.0",
        "dra",
    )
    assert not spec.runs_gfd and not spec.deploys_nfd
