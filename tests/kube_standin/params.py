"""Query-string parameters as the apiserver reads them."""

from __future__ import annotations

from . import errors
from .resources import ResourceType
from .selectors import FieldSelector, LabelSelector, SelectorError, parse_field_selector, parse_label_selector

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


def selectors(rt: ResourceType, query: Query, name: str | None = None) -> tuple[LabelSelector, FieldSelector]:
    """labelSelector and fieldSelector (plus metadata.name for a named watch); 400 when malformed."""
    try:
        labels = parse_label_selector(first(query, "labelSelector"))
        text = first(query, "fieldSelector") or ""
        if name is not None:
            text = f"metadata.name={name}" + (f",{text}" if text else "")
        fields = parse_field_selector(text, rt.plural)
    except SelectorError as exc:
        raise errors.bad_request(str(exc)) from exc
    return labels, fields
