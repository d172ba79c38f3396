"""The config models' two paths side by side: the fast path (``config_model.fast``) and the pydantic models.

``both_ways`` validates a value both ways and asserts the fast path either refused it or built what the pydantic
model built (the same fields, values of the same types); ``checking`` makes every ``fast.light`` call of a test do
that (``tests/core/conftest.py`` turns it on for the core tests, so every input of their tables is compared).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from gpuready.core.config_model import fast
from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.forms import Values
from gpuready.core.config_model.settings_model import stack_config_model
from gpuready.core.config_model.stack_values import joined

LIGHT = fast.light


@cache
def models() -> dict[str, type[BaseModel]]:
    """Shape name -> the pydantic model it was generated from."""
    import tools.shape_table  # noqa: F401, PLC0415 - imports every model the tables are made from (a test run of one
    # directory may not have: the fast path loads none of them)

    found: dict[str, type[BaseModel]] = {joined(): stack_config_model()}
    pending: list[type[BaseModel]] = [ConfigModel]
    while pending:
        model = pending.pop()
        pending.extend(model.__subclasses__())
        if model.__name__ not in found and fast_shape(model) == model.__name__:
            found[model.__name__] = model
    return found


def fast_shape(model: type) -> str | None:
    try:
        return fast.shape_of(model)
    except KeyError:
        return None


def plain(value: Any) -> Any:
    """``value`` as comparable data: a model or light object as its shape and fields, leaves with their types."""
    if isinstance(value, (Values, BaseModel)):
        return (fast_shape(type(value)), {k: plain(v) for k, v in vars(value).items()})
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {plain(k): plain(v) for k, v in value.items()}
    return (type(value).__name__, value)


def both_ways(shape: str, raw: object) -> Any:
    """``fast.light(shape, raw)``, asserted to be None or what the pydantic model makes of ``raw``."""
    found = LIGHT(shape, raw)
    if found is None:
        return None
    try:
        model = models()[shape].model_validate(raw)
    except ValidationError as error:
        pytest.fail(f"the fast path accepted {raw!r} as {shape}, which pydantic refuses: {error}")
    if shape == joined():  # the joined keys come as a dict of field values
        assert {k: plain(v) for k, v in found.items()} == plain(model)[1], f"{shape}: {raw!r}"
    else:
        assert plain(found) == plain(model), f"{shape}: {raw!r}"
    return found


@contextmanager
def checking() -> Iterator[None]:
    """Every ``fast.light`` call inside checked against the pydantic model (``both_ways``)."""
    fast.light = both_ways
    try:
        yield
    finally:
        fast.light = LIGHT


@contextmanager
def slow_only() -> Iterator[None]:
    """Every value to the pydantic models (the fast path off)."""
    fast.enabled = False
    try:
        yield
    finally:
        fast.enabled = True
