"""Query-string parameters as the apiserver reads them."""

from __future__ import annotations

from . import errors
from .selectors import LabelSelector, SelectorError, parse_label_selector

Query = dict[str, list[str]]


def first(query: Query, name: str) -> str | None:
    values = query.get(name)
    return values[0] if values else None


def int_param(query: Query, name: str) -> int | None:
    raw = first(query, name)
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError as exc:
        message = f'invalid value for {name}: strconv.ParseInt: parsing "{raw}": invalid syntax'
        raise errors.bad_request(message) from exc
    if value < 0:
        raise errors.bad_request(f"{name} must not be negative")
    return value


def label_selector(query: Query) -> LabelSelector:
    """The labelSelector parameter; 400 when malformed."""
    try:
        return parse_label_selector(first(query, "labelSelector"))
    except SelectorError as exc:
        raise errors.bad_request(str(exc)) from exc
