"""The base of each cloud's settings model: the ``gpuready:*`` keys only one cloud reads. Pure.

Each cloud declares its own keys in its package (``components/gpuready/<cloud>/settings_model.py``) and registers
the model once, as its profile's ``settings`` (``StackWiring``). The core's ``StackSettingsConfig`` keeps the
cloud-neutral keys; ``settings_model.stack_config_model`` joins it with every cloud's model, so a stack may set any
cloud's key (checked in its format, used only on its cloud), and ``Pulumi.yaml``'s config block, the key
reference and the stack program's reads are derived from the joined model.

A key's user-facing text (``pulumi config``'s description) is its field's ``description``; ``StackKey`` in its
``Annotated`` metadata says whether a stack on the cloud must set it (``required``) and whether the cluster's
kubeconfig look-up needs it (``target``: ``cluster_kubeconfig.ClusterTarget``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Protocol, Self

from pydantic import AfterValidator, BeforeValidator

from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.problems import config_error
from gpuready.errors import Problem, RegistrationError
from gpuready.record import record

NS = "gpuready"


def text_items(value: Any) -> Any:
    """Every item of a list as text, as the engine would pass it."""
    return [str(v) for v in value] if isinstance(value, list) else value


Strings = Annotated[list[str], BeforeValidator(text_items)]
"""A list of strings (Pulumi type ``array``)."""


def formatted(pattern: re.Pattern[str], message: str, hint: str | Callable[[str], str]) -> AfterValidator:
    """The check of a text key in its documented format: the value when ``pattern`` matches it, else the key's
    problem saying ``message``, with ``hint`` (a text, or one made from the value given)."""

    def check(value: str) -> str:
        if pattern.match(value):
            return value
        raise config_error(message, hint(value) if callable(hint) else hint)

    return AfterValidator(check)


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
    def cloud_settings(self) -> CloudSettingsConfig | None: ...


class CloudSettingsConfig(ConfigModel):
    """The ``gpuready:*`` keys of one cloud (subclassed in the cloud's package). Every key has an empty default:
    a stack of another cloud may leave it unset, and ``required`` ones are asked for by the stack's cloud only."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        """A cloud's model is complete when it is made (at import): every key described (``Pulumi.yaml`` shows
        it) and empty by default (a stack of another cloud leaves it unset); ``RegistrationError`` otherwise."""
        super().__pydantic_init_subclass__(**kwargs)
        for name, field in cls.model_fields.items():
            if not field.description:
                raise RegistrationError(f"{cls.__name__}.{name}: a cloud's stack key needs its description")
            if field.is_required() or field.default not in ("", []):
                raise RegistrationError(
                    f'{cls.__name__}.{name}: a cloud\'s stack key defaults to empty ("" or []), got '
                    f"{'none' if field.is_required() else repr(field.default)}; mark it required with StackKey"
                )

    @classmethod
    def stack_keys(cls) -> tuple[str, ...]:
        """The model's keys, as a stack file spells them, in declaration order."""
        return tuple(field.alias or name for name, field in cls.model_fields.items())

    @classmethod
    def _marked(cls, wanted: str) -> tuple[str, ...]:
        return tuple(
            field.alias or name
            for name, field in cls.model_fields.items()
            if any(isinstance(m, StackKey) and getattr(m, wanted) for m in field.metadata)
        )

    @classmethod
    def required_keys(cls) -> tuple[str, ...]:
        """Keys a stack on this cloud must set besides ``cloud``, ``clusterName`` and ``nodePools``."""
        return cls._marked("required")

    @classmethod
    def target_keys(cls) -> tuple[str, ...]:
        """Keys the cluster's kubeconfig look-up needs (``ClusterTarget``)."""
        return cls._marked("target")

    @classmethod
    def of(cls, settings: HasCloudSettings) -> Self:
        """The settings of this cloud that ``settings`` carries; ``TypeError`` when they are another model's."""
        return cls.narrow(settings.cloud_settings)

    @classmethod
    def narrow(cls, found: CloudSettingsConfig | None) -> Self:
        """``found`` as this cloud's model; ``TypeError`` when it is another model (or none)."""
        if not isinstance(found, cls):
            raise TypeError(f"the stack settings carry {type(found).__name__}, not {cls.__name__}")
        return found

    def missing(self, keys: Sequence[str], cloud: str) -> list[Problem]:
        """A problem per key of ``keys`` this model leaves empty, worded for a stack on ``cloud``."""
        values = self.model_dump(by_alias=True)
        return [missing_key(key, cloud) for key in keys if not values.get(key)]


def missing_key(key: str, cloud: str) -> Problem:
    """A cloud's required key that a stack on it leaves unset."""
    return Problem(
        f"{NS}:{key}", f"is required when {NS}:cloud is {cloud}", None, (), f"pulumi config set {NS}:{key} ..."
    )
