"""Every problem of one config entry at once: its shape problems, then the rules on what is left. Pure.

A model's shape errors (wrong type, unknown key, unknown sharing mode) would otherwise hide the domain rules'
problems of the entry's other keys (a bad ``maxSize`` hiding a bad ``name``, an unknown sharing mode hiding a bad
``replicas``). So after a shape error the entry is validated again with its broken keys left out, or replaced by a
stand-in when the model requires them (a stand-in is chosen so the rules say nothing about it), and the rules run
on that: their problems on keys that were fine are added. Problems about a broken key come from the shape pass
only, so nothing is reported twice and nothing is guessed about a value the user did not write.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TypeVar

from pydantic import ValidationError

from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.forms import OMIT, StandIn
from gpuready.core.config_model.problems import problems_of, validate
from gpuready.core.suggest import closest
from gpuready.errors import ConfigError, Problem, SpecError

M = TypeVar("M", bound=ConfigModel)
T = TypeVar("T")

__all__ = ["OMIT", "StandIn", "nearest", "top_key", "validated"]


_ROUNDS = 3
"""Salvage passes at most: each leaves out the keys the previous one found broken."""


def validated(
    model: type[M],
    raw: object,
    prefix: str,
    build: Callable[[M], T],
    stand_ins: Mapping[str, StandIn] | None = None,
) -> T:
    """``build(model of raw)``; raise ``ConfigError`` with the shape problems and the rules' problems on the keys
    that were fine. ``build`` raises ``SpecError`` with paths under ``prefix``."""
    try:
        entry = validate(model, raw, prefix)
    except ConfigError as error:
        if not isinstance(raw, Mapping):
            raise
        raise ConfigError(_salvaged(model, raw, prefix, build, error.problems, stand_ins=stand_ins or {})) from None
    try:
        return build(entry)
    except SpecError as error:
        raise ConfigError(error.problems) from None


def _salvaged(
    model: type[M],
    raw: Mapping[str, object],
    prefix: str,
    build: Callable[[M], T],
    shape: tuple[Problem, ...],
    *,
    stand_ins: Mapping[str, StandIn],
) -> list[Problem]:
    problems = list(shape)
    broken = {key for p in shape if (key := top_key(p.path, prefix)) is not None}
    failed = broken - set(stand_ins)  # broken keys left out: without a stand-in, or whose stand-in failed too
    for _ in range(_ROUNDS):
        entry = {k: v for k, v in raw.items() if k not in broken}
        for key in broken - failed:
            stand_in = stand_ins[key](raw, raw.get(key))
            if stand_in is OMIT:
                failed.add(key)  # left out: a "required" about it would only repeat its shape problem
            else:
                entry[key] = stand_in
        try:
            salvage = model.model_validate(entry)
        except ValidationError as error:
            found = problems_of(error, model, prefix)
            keys = {key for p in found if (key := top_key(p.path, prefix)) is not None}
            problems.extend(p for p in found if top_key(p.path, prefix) not in failed and not _said(p, problems))
            if keys <= failed:
                return problems
            failed |= keys
            broken |= keys
            continue
        try:
            build(salvage)
        except SpecError as error:
            problems.extend(p for p in error.problems if top_key(p.path, prefix) not in broken)
        return problems
    return problems


def nearest(choices: Collection[str]) -> StandIn:
    """A stand-in for a closed set: the choice close to what was written (``suggest.closest``), else left out."""

    def stand_in(entry: Mapping[str, object], value: object) -> object:
        match = closest(value, choices) if isinstance(value, str) else None
        return OMIT if match is None else match

    return stand_in


def top_key(path: str, prefix: str) -> str | None:
    """The entry's own key a problem's path starts with (``p[0].sharing.mode`` under ``p[0]`` -> ``sharing``)."""
    if not path.startswith(prefix):
        return None
    rest = path[len(prefix) :].lstrip(".")
    key = rest.split(".", 1)[0].split("[", 1)[0]
    return key or None


def _said(problem: Problem, problems: list[Problem]) -> bool:
    return any(p.path == problem.path and p.problem == problem.problem for p in problems)
