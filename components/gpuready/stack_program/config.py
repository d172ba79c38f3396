"""Reads the stack's ``gpuready:*`` config: the only module that calls ``pulumi.Config``."""

from __future__ import annotations

import pulumi
from pulumi.runtime import get_config_env, is_config_secret

from gpuready.core.stack_settings import NS, StackSettings, parse_stack_settings

STRING_KEYS = (
    "kubeconfig",
    "kubeContext",
    "cloud", "clusterName", "nodePools", "gpuStack", "binpackScheduler", "kueue", "conventions", "eksNodeRoleArn",
    "aksResourceGroup", "aksVnetSubnetId", "gkeLocation", "gkeServiceAccount", "verifySmokeImage",
)  # fmt: skip
ARRAY_KEYS = ("tags", "eksSubnetIds", "gkeNodeLocations", "verifySkipPools", "karpenterFeatureGates")
SCALAR_KEYS = ("verify", "verifyTimeoutSeconds", "verifySmoke")
"""Boolean and integer keys: the engine passes them as text; ``parse_stack_settings`` checks and converts."""


def load() -> StackSettings:
    """The validated settings of the running stack; raises ``ConfigError`` listing every problem."""
    config = pulumi.Config(NS)
    values: dict[str, object] = {}
    for key in STRING_KEYS:
        value = config.get(key)
        if value is not None:
            values[key] = value
    for key in SCALAR_KEYS:
        scalar = config.get(key)
        if scalar is not None:
            values[key] = scalar
    for key in ARRAY_KEYS:
        raw = config.get(key)
        if raw is not None:
            values[key] = (
                raw  # JSON-encoded, as the engine passes every non-string value: the settings model decodes it
            )
    # Every other gpuready:* key the engine passed (PULUMI_CONFIG): a typo the settings model refuses by name.
    known = {*STRING_KEYS, *SCALAR_KEYS, *ARRAY_KEYS}
    for full_key, value in get_config_env().items():
        namespace, _, key = full_key.partition(":")
        if namespace == NS and key not in known:
            values[key] = value
    secret_keys = {key for key in STRING_KEYS if is_config_secret(f"{NS}:{key}")}
    return parse_stack_settings(values, secret_keys)
