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

from typing import Annotated, Any

from pydantic import AfterValidator

from gpuready.core.config_model.base import ConfigModel, after, before
from gpuready.core.config_model.cloud_keys import (
    REQUIRED,
    TARGET,
    CloudSettingsValues,
    Format,
    HasCloudSettings,
    StackKey,
    missing_key,
)
from gpuready.core.config_model.forms import text_items
from gpuready.errors import RegistrationError

__all__ = [
    "REQUIRED", "TARGET", "CloudSettingsConfig", "Format", "HasCloudSettings", "StackKey", "Strings", "formatted",
    "missing_key", "text_items",
]  # fmt: skip

Strings = Annotated[list[str], before(text_items)]
"""A list of strings (Pulumi type ``array``)."""


def formatted(check: Format) -> AfterValidator:
    """The check of a text key in its documented format (``cloud_keys.Format``)."""
    return after(check)


class CloudSettingsConfig(CloudSettingsValues, ConfigModel):
    """The ``gpuready:*`` keys of one cloud (subclassed in the cloud's package, after the cloud's light class). Every
    key has an empty default: a stack of another cloud may leave it unset, and ``required`` ones are asked for by the
    stack's cloud only."""

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

    def stack_values(self) -> dict[str, object]:
        return self.model_dump(by_alias=True)
