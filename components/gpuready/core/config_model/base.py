"""The base of every config model: strict, frozen, camelCase aliases, unknown keys refused. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, model_validator
from pydantic.alias_generators import to_camel

from gpuready.record import record


@record(frozen=True, slots=True)
class Words:
    """How the adapter words a refused value of one field: the problem, and a hint (empty: a did-you-mean only)."""

    problem: str
    hint: str = ""


class ConfigModel(BaseModel):
    """A mapping of the stack config, validated strictly: no coercion (``"2"`` is not a number, ``"true"`` is not
    a boolean), keys as users write them (``instanceType``), unknown keys refused.

    Field docstrings are the package schema's descriptions; the schema reads them when it is generated
    (``gpuready.package.field_docs``), not every process that imports a model."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        frozen=True,
        alias_generator=to_camel,
        validate_by_name=False,
        hide_input_in_errors=False,
        defer_build=True,
    )
    words: ClassVar[Mapping[str, Words]] = {}
    """Field alias -> wording of a value outside its allowed set (``unknown sharing mode``)."""
    shape: ClassVar[Words] = Words("must be a mapping")
    """How the adapter words a value that is not a mapping at all (with an example as the hint)."""
    shape_allowed: ClassVar[tuple[str, ...]] = ()
    """What the adapter lists as allowed then (e.g. the kinds, when a bare kind is also accepted)."""

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        """A key set to null (``namespace: ~``) counts as not given, as in every gpuready mapping."""
        if isinstance(data, Mapping):
            return {k: v for k, v in data.items() if v is not None}
        return data
