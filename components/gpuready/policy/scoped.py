"""Policy classes made of pure rules: ``ScopedResourcePolicy`` and ``ScopedStackPolicy``.

Each knows the resource types its rules read (``resource_types``), so an analyzer may skip resources no policy
looks at; the engine, which sends everything, gets the same answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from typing import Any

from pulumi_policy import (
    EnforcementLevel,
    PolicyConfigSchema,
    ReportViolation,
    ResourceValidationArgs,
    ResourceValidationPolicy,
    Severity,
    StackValidationArgs,
    StackValidationPolicy,
)

from gpuready.policy.rules import stack

Rule = Callable[[str, Mapping[str, Any], Mapping[str, Any]], list[str]]
OptionsRule = Callable[[str, Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]], list[str]]
"""A rule that also reads the resource's options: ``(type, props, options, config)``."""
StackRule = Callable[[Sequence[stack.StackResource], Mapping[str, Any]], list[stack.Finding]]


class ScopedResourcePolicy(ResourceValidationPolicy):
    """A resource policy made of pure rules, run only on the resource types it names."""

    def __init__(
        self,
        *,
        name: str,
        description: str,
        rules: Sequence[Rule],
        resource_types: Iterable[str],
        enforcement_level: EnforcementLevel,
        severity: Severity,
        remediation_steps: str,
        url: str,
        config: Mapping[str, dict[str, Any]] | None = None,
        option_rules: Sequence[OptionsRule] = (),
    ) -> None:
        self.resource_types = _types(resource_types)
        """Types the rules read; every other resource passes without being looked at."""
        self._rules = tuple(rules)
        self._option_rules = tuple(option_rules)
        self._defaults = _defaults(config)
        super().__init__(
            name=name,
            description=description,
            validate=self._validate,
            enforcement_level=enforcement_level,
            config_schema=PolicyConfigSchema(dict(config)) if config else None,
            severity=severity,
            remediation_steps=remediation_steps,
            url=url,
        )

    def _validate(self, args: ResourceValidationArgs, report_violation: ReportViolation) -> None:
        if args.resource_type not in self.resource_types:
            return
        config = {**self._defaults, **args.get_config()}
        kind = args.resource_type.rsplit(":", 1)[-1]
        for rule in self._rules:
            for message in rule(args.resource_type, args.props, config):
                report_violation(f"{kind} {args.name!r}: {message}", None)
        if self._option_rules:
            options = resource_options(args)
            for option_rule in self._option_rules:
                for message in option_rule(args.resource_type, args.props, options, config):
                    report_violation(f"{kind} {args.name!r}: {message}", None)


def resource_options(args: ResourceValidationArgs) -> dict[str, Any]:
    """The options a lifecycle rule reads, in the engine's spelling (``deleteBeforeReplace`` None when unset)."""
    opts = args.opts
    return {
        "ignoreChanges": list(opts.ignore_changes or ()),
        "deleteBeforeReplace": opts.delete_before_replace,
        "protect": bool(opts.protect),
    }


class ScopedStackPolicy(StackValidationPolicy):
    """A stack policy made of pure rules over the resources of the types it names."""

    def __init__(
        self,
        *,
        name: str,
        description: str,
        rules: Sequence[StackRule],
        resource_types: Iterable[str],
        enforcement_level: EnforcementLevel,
        severity: Severity,
        remediation_steps: str,
        url: str,
        requires_types: Iterable[str] | None = None,
        config: Mapping[str, dict[str, Any]] | None = None,
    ) -> None:
        self.resource_types = _types(resource_types)
        """Types the rules read; an analyzer may leave other resources out of ``AnalyzeStack``."""
        self.requires_types = _types(requires_types) if requires_types is not None else None
        """The rules report nothing unless the stack holds one of these types; an analyzer may skip the policy then."""
        self._rules = tuple(rules)
        self._defaults = _defaults(config)
        super().__init__(
            name=name,
            description=description,
            validate=self._validate,
            enforcement_level=enforcement_level,
            config_schema=PolicyConfigSchema(dict(config)) if config else None,
            severity=severity,
            remediation_steps=remediation_steps,
            url=url,
        )

    def _validate(self, args: StackValidationArgs, report_violation: ReportViolation) -> None:
        resources = [
            stack.StackResource(r.resource_type, r.urn, r.name, r.props)
            for r in args.resources
            if r.resource_type in self.resource_types
        ]
        config = {**self._defaults, **args.get_config()}
        for rule in self._rules:
            for finding in rule(resources, config):
                report_violation(finding.message, finding.urn)


def _types(types: Iterable[str]) -> Set[str]:
    """A set kept as given (a ``TypeScope`` answers per token, loading only the clouds owning it), else frozen."""
    return types if isinstance(types, Set) else frozenset(types)


def _defaults(config: Mapping[str, dict[str, Any]] | None) -> dict[str, Any]:
    """Schema defaults. The engine applies them too, but a policy run outside it (a unit test) must not need it."""
    return {key: spec["default"] for key, spec in (config or {}).items() if "default" in spec}
