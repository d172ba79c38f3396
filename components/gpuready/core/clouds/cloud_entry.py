"""A cloud as ``gpuready.plugins`` registers it (``CloudEntry``): what the registry answers without the cloud's
profile, and the loaders that import it on first ask (issue #32). Pure."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import TYPE_CHECKING

from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues
    from gpuready.core.config_model.cloud_settings import CloudSettingsConfig

__all__ = ["CloudEntry", "owned_types"]


@record(frozen=True)
class CloudEntry:
    """A cloud as registered: what the registry answers without its profile, and how to load the profile."""

    name: str
    """The cloud's name (its profile's ``name``)."""
    types: tuple[str, ...]
    """Prefixes of the type tokens (resources, invokes) its profile writes, reads or answers for: its provisioners'
    tables' and readers', its offline answers', its add-on resource's and its fabric's (``owned_types``). A token
    under none of them is not the cloud's."""
    load: Callable[[], CloudProfile]
    """Imports the cloud's profile and returns it (a function with a plain import, called once, on first ask)."""
    settings: Callable[[], type[CloudSettingsConfig]]
    """Imports the cloud's settings model alone (its ``gpuready:*`` keys, which a stack on any cloud may set and
    has checked): the profile's ``settings``, without the profile."""
    values: Callable[[], type[CloudSettingsValues]]
    """Imports the light class of the cloud's settings alone (``<cloud>/settings_keys.py``, no pydantic): the
    profile's ``settings_values``, which the fast path checks a valid stack's keys with, without the profile."""
    charts: Mapping[str, str] = field(default_factory=dict)
    """The Helm charts the cloud installs for its fabric pools -> the version gpuready pins (its profile's
    ``fabric.charts``): the policy pack declares them to the engine (``allowedVersions``) without the profile."""
    own_label_keys: frozenset[str] = frozenset()
    """The label keys its pools get from gpuready (its profile's ``own_label_keys``), which no pool on any cloud may
    declare: checked on every pool without loading the profile."""
    own_taint_keys: frozenset[str] = frozenset()
    """The taint keys its pools get from gpuready (its profile's ``own_taint_keys``), likewise."""


def owned_types(profile: CloudProfile) -> frozenset[str]:
    """Every type token ``profile`` writes, reads or answers for: its provisioners' tables' and readers', its
    offline answers', add-on's and fabric's."""
    answers = profile.offline_answers
    addon = profile.addon_resource
    provisioners = profile.provisioners.values()
    return frozenset(
        {token for provisioner in provisioners for token in provisioner.readers}
        | {table.type for provisioner in provisioners for table in provisioner.tables}
        | set(answers.outputs) | set(answers.invokes) | set(profile.fabric.policy_types)
        | ({addon.type} if addon is not None else set())
    )  # fmt: skip
