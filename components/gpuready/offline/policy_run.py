"""Policies evaluated in-process on a captured run, each resource decoded once for every policy that reads it.

pulumi_policy's servicer decodes a resource's input Struct (``MessageToDict``, here its equal
``echo.struct_dict``, ``deserialize_properties`` and a read-only proxy) once per policy in ``Analyze`` and
again per stack policy in ``AnalyzeStack``: at 1,000 pools most of the gate's time. ``evaluate`` runs the
servicer's own loops (the same levels and config from its ``Configure``, the same ``report_violation``,
``ResourceValidationArgs`` / ``StackValidationArgs``, unknown-value and not-applicable handling, parents and
dependencies resolved among the resources a stack policy is given), on resources decoded once and shared: policies
only read them through the proxies. Only the policies that read a resource's type see it, and stack policies whose
``requires_types`` are all absent are skipped, as the engine's answers would not change.
``gpuready.offline.analyzer`` tests this against the full servicer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from inspect import isawaitable
from typing import Any

from pulumi.runtime.proto import analyzer_pb2
from pulumi_policy import (
    EnforcementLevel,
    Policy,
    PolicyResource,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    StackValidationArgs,
    StackValidationPolicy,
)
from pulumi_policy.deserialize import deserialize_properties
from pulumi_policy.proxy import UnknownValueError, unknown_checking_proxy

from gpuready.offline.analyzer_requests import analyze_request, stack_configure_request
from gpuready.offline.capture import CapturedRun, RegisteredResource
from gpuready.offline.echo import struct_dict
from gpuready.offline.sdk_private import _NotApplicableError, _PolicyAnalyzerServicer
from gpuready.record import record


@record(frozen=True, kw_only=True, slots=True)
class Violation:
    """One policy violation the pack reported."""

    policy: str
    level: str
    """``mandatory`` or ``advisory``."""
    resource: str
    """The URN of the resource, or of the stack for a stack policy."""
    message: str

    def as_json(self) -> dict[str, str]:
        """The violation as the plan's JSON shows it (``policy``, ``level``, ``resource``, ``message``)."""
        return {"policy": self.policy, "level": self.level, "resource": self.resource, "message": self.message}


LEVELS: Mapping[int, str] = {
    analyzer_pb2.ADVISORY: "advisory",
    analyzer_pb2.MANDATORY: "mandatory",
    analyzer_pb2.REMEDIATE: "mandatory",  # the servicer reports remediations that still fail as mandatory
    analyzer_pb2.DISABLED: "disabled",
}


@record(frozen=True, slots=True)
class _Decoded:
    """One resource as every policy receives it."""

    resource: RegisteredResource
    props: Any
    options: Any
    provider: Any


def evaluate(
    run: CapturedRun,
    policies: Sequence[Policy],
    *,
    pack_name: str,
    pack_version: str,
    configure: analyzer_pb2.ConfigureAnalyzerRequest,
) -> list[Violation]:
    """The violations the servicer's ``Analyze`` per resource and ``AnalyzeStack`` would report (unsorted)."""
    servicer: Any = _PolicyAnalyzerServicer(pack_name, pack_version, list(policies), EnforcementLevel.ADVISORY)
    servicer.Configure(configure, None)
    servicer.ConfigureStack(stack_configure_request(run), None)
    servicer._configure_runtime_settings()
    stack_tags = servicer._PolicyAnalyzerServicer__stack_tags  # what the servicer hands its policies
    decoded = _Decoder(servicer, run)
    unknown = _unknown_diagnostic(servicer, pack_name, pack_version)
    found: list[Violation] = []
    active = [p for p in policies if _level(servicer, p) != EnforcementLevel.DISABLED]
    resource_policies = [p for p in active if isinstance(p, ResourceValidationPolicy) and p.has_validation()]
    readers_of: dict[str, list[Policy]] = {}  # by resource type: a plan has many resources of few types
    for resource in run.resources:
        readers = readers_of.get(resource.type)
        if readers is None:
            readers = readers_of[resource.type] = [p for p in resource_policies if reads(p, resource.type)]
        if not readers:
            continue
        item = decoded(resource)
        response = analyzer_pb2.AnalyzeResponse()
        for policy in readers:
            report = _reporter(servicer, response, policy)
            config = servicer._get_policy_config(policy.name)
            args = ResourceValidationArgs(
                resource.type, item.props, resource.urn, resource.name, item.options, item.provider, config, stack_tags
            )
            _run(policy, args, report, response, unknown)
        found += violations(response, resource.urn)
    present = {r.type for r in run.resources}
    for stack_policy in active:
        if isinstance(stack_policy, StackValidationPolicy) and may_report(stack_policy, present):
            response = analyzer_pb2.AnalyzeResponse()
            read = {t for t in present if reads(stack_policy, t)}  # asked once a type, not once a resource
            chosen = [decoded(r) for r in run.resources if r.type in read]
            config = servicer._get_policy_config(stack_policy.name)
            stack_args = StackValidationArgs(_linked(chosen), config, stack_tags)
            _run(stack_policy, stack_args, _reporter(servicer, response, stack_policy), response, unknown)
            found += violations(response, run.stack_urn)
    return found


class _Decoder:
    """Each resource decoded on first use, exactly as the servicer decodes it, then reused."""

    def __init__(self, servicer: Any, run: CapturedRun) -> None:
        self._servicer = servicer
        self._by_urn = {r.urn: r for r in run.resources}
        self._done: dict[str, _Decoded] = {}
        self._providers: dict[str, Any] = {}

    def __call__(self, resource: RegisteredResource) -> _Decoded:
        found = self._done.get(resource.urn)
        if found is None:
            request = analyze_request(resource, self._by_urn, properties=False)
            props = unknown_checking_proxy(deserialize_properties(struct_dict(resource.object)))
            if resource.provider not in self._providers:
                self._providers[resource.provider] = self._servicer._get_provider_resource(request)
            options = self._servicer._get_resource_options(request)
            found = self._done[resource.urn] = _Decoded(resource, props, options, self._providers[resource.provider])
        return found


def _linked(chosen: Sequence[_Decoded]) -> list[PolicyResource]:
    """``PolicyResource``s with parents and dependencies among ``chosen`` only, as ``AnalyzeStack`` builds them."""
    resources = [
        PolicyResource(d.resource.type, d.props, d.resource.urn, d.resource.name, d.options, d.provider, None, [], {})
        for d in chosen
    ]
    by_urn = {r.urn: r for r in resources}
    for item, resource in zip(chosen, resources, strict=True):
        source = item.resource
        if source.parent in by_urn:
            resource.parent = by_urn[source.parent]
        resource.dependencies.extend(by_urn[d] for d in source.dependencies if d in by_urn)
        for key, urns in source.property_dependencies.items():
            resource.property_dependencies[key] = [by_urn[d] for d in urns if d in by_urn]
    return resources


def _level(servicer: Any, policy: Policy) -> EnforcementLevel:
    level: EnforcementLevel = servicer._get_enforcement_level(policy)
    return level


def _reporter(servicer: Any, response: analyzer_pb2.AnalyzeResponse, policy: Policy) -> Callable[..., None]:
    level = _level(servicer, policy)
    if level == EnforcementLevel.REMEDIATE:  # what still fails after remediation is reported as mandatory
        level = EnforcementLevel.MANDATORY
    report: Callable[..., None] = servicer._create_report_violation(
        response, policy.name, policy.description, level, policy.severity
    )
    return report


def _unknown_diagnostic(servicer: Any, pack_name: str, pack_version: str) -> Callable[[Policy, str], Any]:
    def diagnostic(policy: Policy, message: str) -> analyzer_pb2.AnalyzeDiagnostic:
        return analyzer_pb2.AnalyzeDiagnostic(
            policyName=policy.name,
            policyPackName=pack_name,
            policyPackVersion=pack_version,
            message=f"can't run policy '{policy.name}' from policy pack '{pack_name}@v{pack_version}' during "
            f"preview: {message}",
            urn="",
            description=policy.description,
            enforcementLevel=servicer._map_enforcement_level(EnforcementLevel.ADVISORY),
        )

    return diagnostic


def _run(
    policy: Policy,
    args: object,
    report: Callable[..., None],
    response: analyzer_pb2.AnalyzeResponse,
    unknown: Callable[[Policy, str], Any],
) -> None:
    try:
        result = policy.validate(args, report)  # type: ignore[attr-defined]
        if isawaitable(result):
            loop = asyncio.new_event_loop()
            try:
                loop.run_until_complete(result)
            finally:
                loop.close()
    except UnknownValueError as error:
        response.diagnostics.append(unknown(policy, error.message))
    except _NotApplicableError:
        pass  # reported as not applicable, never as a violation


def reads(policy: Policy, resource_type: str) -> bool:
    """Whether ``policy`` looks at resources of ``resource_type`` (policies without ``resource_types``: all)."""
    types = getattr(policy, "resource_types", None)
    return types is None or resource_type in types


def may_report(policy: Policy, present: set[str]) -> bool:
    """False for a stack policy that needs a resource type the run does not have."""
    required = getattr(policy, "requires_types", None)
    return required is None or not required.isdisjoint(present)


def violations(response: analyzer_pb2.AnalyzeResponse, default_urn: str) -> list[Violation]:
    """The response's diagnostics as plain violations, without the description the servicer puts first."""
    found = []
    for diagnostic in response.diagnostics:
        prefix = diagnostic.description + "\n"
        message = diagnostic.message
        found.append(
            Violation(
                policy=diagnostic.policyName,
                level=LEVELS.get(diagnostic.enforcementLevel, "advisory"),
                resource=diagnostic.urn or default_urn,
                message=message[len(prefix) :] if message.startswith(prefix) else message,
            )
        )
    return found
