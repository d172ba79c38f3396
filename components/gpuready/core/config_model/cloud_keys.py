"""What a cloud's ``gpuready:*`` keys are, without pydantic: their formats, what a stack must set, and the light
base of each cloud's settings (``CloudSettingsValues``). Pure.

A cloud declares its keys once, as its pydantic settings model (``<cloud>/settings_model.py``, for the schema,
the key reference and the wording of bad values); the model subclasses the cloud's light class
(``<cloud>/settings_keys.py``), which the fast path (``fast``) builds for a valid stack and the cloud's code reads
(``<Cloud>SettingsValues.of(settings)``), whichever path validated the keys.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol, Self

from gpuready.core.config_model.fast import field_aliases, field_names, shape_of, stack_keys_marked
from gpuready.core.config_model.forms import ShapeError, Values
from gpuready.errors import Problem
from gpuready.record import record

NS = "gpuready"


@record(frozen=True, slots=True)
class Format:
    """A text key's documented format: the value when ``pattern`` (with ``flags``) matches it, else a
    ``ShapeError`` saying ``message`` with ``hint`` (a text, or one made from the value given).

    The pattern is compiled on its first match (``re``'s own cache), not when the cloud's keys are declared: every
    stack declares every cloud's keys and checks only those it sets, its own cloud's (issue #32)."""

    pattern: str
    message: str
    hint: str | Callable[[str], str]
    flags: int = 0

    def __call__(self, value: str) -> str:
        if re.match(self.pattern, value, self.flags):
            return value
        raise ShapeError(self.message, self.hint(value) if callable(self.hint) else self.hint)


@record(frozen=True, slots=True)
class StackKey:
    """What a cloud's key means to a stack on that cloud (``Annotated`` metadata of its field)."""

    required: bool = False
    """A stack on the cloud must set it (it is empty by default, as ``Pulumi.yaml`` declares every key)."""
    target: bool = False
    """The cluster's kubeconfig look-up needs it (``ClusterTarget``)."""


REQUIRED = StackKey(required=True)
TARGET = StackKey(required=True, target=True)


class HasCloudSettings(Protocol):
    """What carries a stack's cloud settings (``stack_settings.StackSettings``)."""

    @property
    def cloud_settings(self) -> CloudSettingsValues | None: ...


class CloudSettingsValues(Values):
    """The validated ``gpuready:*`` keys of one cloud (subclassed in the cloud's package; the pydantic settings model
    subclasses that in turn). Which keys a stack must set comes from the shape table (``fast``)."""

    @classmethod
    def stack_keys(cls) -> tuple[str, ...]:
        """The model's keys, as a stack file spells them, in declaration order."""
        return field_aliases(shape_of(cls))

    @classmethod
    def required_keys(cls) -> tuple[str, ...]:
        """Keys a stack on this cloud must set besides ``cloud``, ``clusterName`` and ``nodePools``."""
        return stack_keys_marked(shape_of(cls), "required")

    @classmethod
    def target_keys(cls) -> tuple[str, ...]:
        """Keys the cluster's kubeconfig look-up needs (``ClusterTarget``)."""
        return stack_keys_marked(shape_of(cls), "target")

    @classmethod
    def of(cls, settings: HasCloudSettings) -> Self:
        """The settings of this cloud that ``settings`` carries; ``TypeError`` when they are another model's."""
        return cls.narrow(settings.cloud_settings)

    @classmethod
    def narrow(cls, found: CloudSettingsValues | None) -> Self:
        """``found`` as this cloud's settings; ``TypeError`` when they are another cloud's (or none)."""
        if not isinstance(found, cls):
            raise TypeError(f"the stack settings carry {type(found).__name__}, not {cls.__name__}")
        return found

    def stack_values(self) -> dict[str, object]:
        """Key (as a stack file spells it) -> value."""
        shape = shape_of(type(self))
        return dict(zip(field_aliases(shape), (getattr(self, n) for n in field_names(shape)), strict=True))

    def missing(self, keys: Sequence[str], cloud: str) -> list[Problem]:
        """A problem per key of ``keys`` these settings leave empty, worded for a stack on ``cloud``."""
        values = self.stack_values()
        return [missing_key(key, cloud) for key in keys if not values.get(key)]


def missing_key(key: str, cloud: str) -> Problem:
    """A cloud's required key that a stack on it leaves unset."""
    return Problem(
        f"{NS}:{key}", f"is required when {NS}:cloud is {cloud}", None, (), f"pulumi config set {NS}:{key} ..."
    )
