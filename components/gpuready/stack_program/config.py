"""Reads the stack's ``gpuready:*`` config: the only module that calls ``pulumi.Config``.

The keys it reads are the joined settings model's (``stack_values.pulumi_types``, read from the shape table: the
cloud-neutral keys and every cloud's own), so a key a cloud's settings model adds is read with no change here."""

from __future__ import annotations

import pulumi
from pulumi.runtime import get_config_env, is_config_secret

from gpuready.core.config_model.stack_values import pulumi_types
from gpuready.core.stack_settings import NS, StackSettings, parse_stack_settings


def load() -> StackSettings:
    """The validated settings of the running stack; raises ``ConfigError`` listing every problem.

    Every declared key is read as the engine passes it: strings as they are, booleans and integers as text, arrays
    JSON-encoded (``parse_stack_settings`` checks and converts them)."""
    config = pulumi.Config(NS)
    declared = pulumi_types()
    values: dict[str, object] = {}
    for key in declared:
        value = config.get(key)
        if value is not None:
            values[key] = value
    # Every other gpuready:* key the engine passed (PULUMI_CONFIG): a typo the settings model refuses by name.
    for full_key, value in get_config_env().items():
        namespace, _, key = full_key.partition(":")
        if namespace == NS and key not in declared:
            values[key] = value
    secret_keys = {key for key, kind in declared.items() if kind == "string" and is_config_secret(f"{NS}:{key}")}
    return parse_stack_settings(values, secret_keys)
