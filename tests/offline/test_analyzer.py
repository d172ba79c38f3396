"""The offline policy analyzer: the engine's Analyzer requests, config handling, and what policies receive."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from pulumi.runtime import rpc
from pulumi.runtime.proto import analyzer_pb2
from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    PolicyResource,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)

from gpuready.offline.analyzer import (
    InProcessAnalyzer,
    analyze_run,
    load_pack,
    load_policy_config,
)
from gpuready.offline.analyzer_requests import PolicyConfigError, configure_request
from gpuready.offline.capture import CapturedRun, RegisteredResource, engine_urn, stack_urn
from gpuready.offline.policy_run import Violation
from gpuready.offline.project import load_project
from gpuready.offline.pulumi_config import load_stack_config
from gpuready.offline.runner import run_program

ROOT = Path(__file__).resolve().parents[2]
STACK_URN = stack_urn("dev", "an")
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"


def _resource(
    name: str,
    props: Mapping[str, Any],
    *,
    type_: str = NODE_GROUP,
    parent: str = STACK_URN,
    provider: str = "",
    dependencies: tuple[str, ...] = (),
) -> RegisteredResource:
    return RegisteredResource(
        urn=engine_urn("dev", "an", parent, type_, name),
        type=type_,
        name=name,
        parent=parent,
        custom=True,
        provider=provider,
        dependencies=dependencies,
        property_dependencies={"clusterName": dependencies} if dependencies else {},
        object=asyncio.run(rpc.serialize_properties(dict(props), {})),
        inputs=dict(props),
    )


def _run(*resources: RegisteredResource, preview: bool = False) -> CapturedRun:
    return CapturedRun("an", "dev", preview, STACK_URN, tuple(sorted(resources, key=lambda r: r.urn)), {})


class Flag(ResourceValidationPolicy):
    """Reports ``bad`` for every resource whose ``flag`` prop is true; records its config."""

    def __init__(
        self,
        name: str = "flag",
        level: EnforcementLevel = EnforcementLevel.MANDATORY,
        schema: PolicyConfigSchema | None = None,
    ) -> None:
        self.configs: list[Mapping[str, Any]] = []
        self.seen: list[ResourceValidationArgs] = []
        super().__init__(name, "Flags flagged resources.", self._check, level, config_schema=schema)

    def _check(self, args: ResourceValidationArgs, report: ReportViolation) -> None:
        self.configs.append(args.get_config())
        self.seen.append(args)
        if args.props.get("flag"):
            report("bad", None)


class Everything(StackValidationPolicy):
    """Records the stack it is shown; reports one stack-wide violation."""

    def __init__(self) -> None:
        self.resources: list[PolicyResource] = []
        super().__init__("everything", "Looks at the whole stack.", self._check, EnforcementLevel.ADVISORY)

    def _check(self, args: StackValidationArgs, report: ReportViolation) -> None:
        self.resources = list(args.resources)
        report("stack-wide", None)


def test_violations_are_typed_without_the_description_prefix() -> None:
    bad = _resource("a", {"flag": True})
    found = analyze_run(_run(bad, _resource("b", {"flag": False})), [Flag()], pack_name="t")
    assert found == [Violation(policy="flag", level="mandatory", resource=bad.urn, message="bad")]
    assert found[0].as_json() == {"policy": "flag", "level": "mandatory", "resource": bad.urn, "message": "bad"}


def test_configure_sends_every_level_so_mandatory_stays_mandatory() -> None:
    policies = [Flag("m", EnforcementLevel.MANDATORY), Flag("a", EnforcementLevel.ADVISORY)]
    request = configure_request(InProcessAnalyzer("t", policies).info(), None)
    assert request.policyConfig["m"].enforcementLevel == analyzer_pb2.MANDATORY
    assert request.policyConfig["a"].enforcementLevel == analyzer_pb2.ADVISORY


@pytest.mark.parametrize(
    ("config", "levels"),
    [
        (None, ["mandatory"]),
        ({"flag": "advisory"}, ["advisory"]),
        ({"flag": {"enforcementLevel": "disabled"}}, []),
        ({"all": "advisory"}, ["advisory"]),
        ({"all": "disabled", "flag": "mandatory"}, ["mandatory"]),
    ],
)
def test_enforcement_levels_from_config(config: dict[str, Any] | None, levels: list[str]) -> None:
    found = analyze_run(_run(_resource("a", {"flag": True})), [Flag()], pack_name="t", config=config)
    assert [v.level for v in found] == levels


def test_config_properties_start_from_schema_defaults() -> None:
    schema = PolicyConfigSchema({"maxNodes": {"type": "integer", "default": 8}, "names": {"type": "array"}})
    policy = Flag(schema=schema)
    analyze_run(_run(_resource("a", {})), [policy], pack_name="t")
    analyze_run(_run(_resource("a", {})), [policy], pack_name="t", config={"flag": {"maxNodes": 3, "names": ["x"]}})
    assert policy.configs == [{"maxNodes": 8.0}, {"maxNodes": 3.0, "names": ["x"]}]  # numbers arrive as floats


@pytest.mark.parametrize(
    ("config", "error"),
    [
        ({"nope": "mandatory"}, "unknown policies ['nope']"),
        ({"flag": "strict"}, "unknown enforcement level 'strict'"),
        ({"flag": {"maxNodez": 1}}, "has no config property 'maxNodez'"),
        ({"flag": {"maxNodes": "eight"}}, "must be of type integer"),
        ({"flag": {"maxNodes": True}}, "must be of type integer"),
        ({"flag": 3}, "must be a level or an object"),
    ],
)
def test_bad_config_is_refused(config: dict[str, Any], error: str) -> None:
    policy = Flag(schema=PolicyConfigSchema({"maxNodes": {"type": "integer"}}))
    with pytest.raises(PolicyConfigError, match=error.replace("[", r"\[").replace("]", r"\]")):
        analyze_run(_run(_resource("a", {})), [policy], pack_name="t", config=config)


def test_stack_policies_see_parents_dependencies_and_land_on_the_stack() -> None:
    parent = _resource("cluster", {}, type_="gpuready:index:Cluster")
    dependency = _resource("role", {}, type_="aws:iam/role:Role")
    child = _resource("gpu", {"flag": False}, parent=parent.urn, dependencies=(dependency.urn,))
    policy = Everything()
    found = analyze_run(_run(parent, dependency, child), [policy], pack_name="t")
    assert found == [Violation(policy="everything", level="advisory", resource=STACK_URN, message="stack-wide")]
    seen = {r.name: r for r in policy.resources}
    assert seen["gpu"].parent is seen["cluster"]
    assert seen["gpu"].dependencies == [seen["role"]]
    assert seen["gpu"].property_dependencies == {"clusterName": [seen["role"]]}


def test_scoped_policies_only_see_their_types() -> None:
    scoped, everywhere = Flag("scoped"), Flag("everywhere")
    scoped.resource_types = frozenset({NODE_GROUP})  # type: ignore[attr-defined]
    run = _run(_resource("ng", {}), _resource("q", {}, type_="aws:sqs/queue:Queue"))
    analyze_run(run, [scoped, everywhere], pack_name="t")
    assert [a.name for a in scoped.seen] == ["ng"]
    assert sorted(a.name for a in everywhere.seen) == ["ng", "q"]


def test_stack_policies_that_need_an_absent_type_are_skipped() -> None:
    policy = Everything()
    policy.requires_types = frozenset({"kubernetes:helm.sh/v3:Release"})  # type: ignore[attr-defined]
    assert analyze_run(_run(_resource("ng", {})), [policy], pack_name="t") == []
    assert policy.resources == []
    release = _resource("op", {}, type_="kubernetes:helm.sh/v3:Release")
    assert len(analyze_run(_run(_resource("ng", {}), release), [policy], pack_name="t")) == 1
    assert len(policy.resources) == 2


def test_the_provider_the_program_made_reaches_the_policy() -> None:
    provider = _resource("k8s", {"kubeconfig": "x"}, type_="pulumi:providers:kubernetes")
    policy = Flag()
    analyze_run(_run(provider, _resource("a", {}, provider=f"{provider.urn}::k8s_id")), [policy], pack_name="t")
    (args,) = [a for a in policy.seen if a.name == "a"]
    assert args.provider is not None
    assert (args.provider.resource_type, args.provider.name) == ("pulumi:providers:kubernetes", "k8s")
    assert args.opts.parent == STACK_URN


def test_preview_unknowns_are_advisory_diagnostics() -> None:
    unknown = _resource("a", {"flag": rpc.UNKNOWN})
    (found,) = analyze_run(_run(unknown, preview=True), [Flag()], pack_name="t")
    assert found.level == "advisory" and found.resource == unknown.urn
    assert found.message == (
        "can't run policy 'flag' from policy pack 't@v0.0.1' during preview: "
        "string value at .flag can't be known during preview"
    )


@pytest.mark.parametrize("stack", ["eks-dev", "aks-dev", "gke-dev", "wrong"])
def test_scoped_evaluation_gives_the_engine_answers(stack: str) -> None:
    if stack == "wrong":
        project = load_project(ROOT / "examples" / "wrong_program")
        stack, project_dir = "dev", project.program_dir
    else:
        project, project_dir = load_project(ROOT), ROOT
    config = load_stack_config(project, stack)
    run = run_program(
        project.program_dir,
        project=project.name,
        stack=stack,
        config=config.values,
        secret_keys=config.secret_keys,
        root_directory=project_dir,
    )
    name, policies = load_pack()
    scoped = analyze_run(run, policies, pack_name=name)
    assert scoped == analyze_run(run, policies, pack_name=name, scoped=False)


def test_policy_config_files(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"all": "advisory"}))
    assert load_policy_config(good) == {"all": "advisory"}
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(PolicyConfigError, match="must be a JSON object"):
        load_policy_config(tmp_path / "list.json")
    with pytest.raises(PolicyConfigError, match="cannot read policy config"):
        load_policy_config(tmp_path / "missing.json")
