"""The policy gate's config from the stack's ``gpuready:conventions``: each convention handed to every policy of the
pack that declares it (its config schema), under what ``--policy-config`` sets (which wins)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.conventions import parse_conventions
from gpuready.core.yaml_limits import YamlLimitError, load_yaml
from gpuready.errors import SpecError
from gpuready.offline.analyzer import load_pack
from gpuready.offline.analyzer_requests import PolicyConfigError
from gpuready.offline.capture import CapturedRun

KEY = "gpuready:conventions"


def gate_config(run: CapturedRun, given: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``given`` (a ``--policy-config`` document) over the conventions the stack sets; ``given`` when it sets none.

    Raises:
        PolicyConfigError: the stack's ``gpuready:conventions`` is not a valid conventions mapping.
    """
    raw = run.stack_config.get(KEY, "")
    if not raw:
        return dict(given) if given is not None else None
    try:
        conventions = parse_conventions(load_yaml(raw) if isinstance(raw, str) else raw, KEY)
    except (SpecError, YamlLimitError, ValueError) as error:
        raise PolicyConfigError(f"{KEY}: {error}") from error
    properties = conventions.policy_properties()
    _, policies = load_pack()
    config: dict[str, Any] = {}
    for policy in policies:
        schema = policy.config_schema.properties if policy.config_schema is not None else {}
        declared = {k: v for k, v in properties.items() if k in schema}
        if declared:
            config[policy.name] = declared
    for name, value in (given or {}).items():
        overlay = {"enforcementLevel": value} if isinstance(value, str) else dict(value)
        config[name] = {**config.get(name, {}), **overlay} if name != "all" else value
    return config
