"""The base of every config model: strict, frozen, camelCase aliases, unknown keys refused. Pure.

Validators are plain functions (``forms``: the fast path, ``fast``, runs the same ones); ``before``,
``before_model``, ``before_field`` and ``after`` wrap one for pydantic, turning its ``ShapeError`` into the
pydantic error the adapter (``problems``) words, and keep it as ``__plain__`` for the shape table (``shape_table``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, field_validator, model_validator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError

from gpuready.core.config_model.forms import ShapeError, Words, null_is_absent

__all__ = ["CONFIG_ERROR", "ConfigModel", "Words", "after", "before", "before_field", "before_model", "config_error"]

CONFIG_ERROR = "gpuready"
"""The pydantic error type of gpuready's own shape errors, raised by validators: its message is the problem,
``ctx['hint']`` the hint (``config_error``)."""

Check = Callable[[Any], Any]


def config_error(
    problem: str, hint: str = "", *, at: str = "", value: object = None, hidden: bool = False
) -> PydanticCustomError:
    """A shape error worded as gpuready words it, for a model's validator to raise; ``at`` names a key below the
    validated value (with its ``value``) when the problem is there; ``hidden`` never shows the value (secrets)."""
    return PydanticCustomError(CONFIG_ERROR, problem, {"hint": hint, "at": at, "value": value, "hidden": hidden})


def _pydantic(check: Check) -> Check:
    """``check`` raising pydantic's error for its ``ShapeError``; the plain check kept as ``__plain__``."""

    def run(value: Any) -> Any:
        try:
            return check(value)
        except ShapeError as error:
            raise config_error(error.problem, error.hint, at=error.at, value=error.value, hidden=error.hidden) from None

    run.__plain__ = check  # type: ignore[attr-defined]
    return run


def before(check: Check) -> BeforeValidator:
    """A field's before-validator (``Annotated`` metadata) running the plain ``check``."""
    return BeforeValidator(_pydantic(check))


def after(check: Check) -> AfterValidator:
    """A field's after-validator (``Annotated`` metadata) running the plain ``check``."""
    return AfterValidator(_pydantic(check))


def before_model(check: Check) -> Any:
    """A model's before-validator (a class attribute) running the plain ``check`` on the whole input."""
    run = _pydantic(check)

    def validator(cls: type, data: Any) -> Any:
        return run(data)

    validator.__plain__ = check  # type: ignore[attr-defined]
    return model_validator(mode="before")(classmethod(validator))  # type: ignore[arg-type]


def before_field(field: str, check: Check) -> Any:
    """A before-validator of the model's field ``field`` (a class attribute) running the plain ``check``."""
    run = _pydantic(check)

    def validator(cls: type, value: Any) -> Any:
        return run(value)

    validator.__plain__ = check  # type: ignore[attr-defined]
    return field_validator(field, mode="before")(classmethod(validator))


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

    _null_is_absent = before_model(null_is_absent)
