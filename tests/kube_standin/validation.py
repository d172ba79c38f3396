"""The slice of apiserver validation that catches mistakes cluster-facing code makes: names and labels."""

from __future__ import annotations

import re
from typing import Any

from .errors import bad_request, invalid
from .resources import Obj, ResourceType
from .selectors import label_value_problem, qualified_name_problem

_DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_LABEL_MSG = (
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start "
    "and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)
_SUBDOMAIN_MSG = (
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
)

Cause = tuple[str, str, str]  # field, reason, message


def _name_causes(rt: ResourceType, name: str) -> list[Cause]:
    if rt.plural == "namespaces":
        if len(name) > 63 or not _DNS1123_LABEL.match(name):
            return [("metadata.name", "FieldValueInvalid", f'Invalid value: "{name}": {_LABEL_MSG}')]
    elif len(name) > 253 or not _DNS1123_SUBDOMAIN.match(name):
        return [("metadata.name", "FieldValueInvalid", f'Invalid value: "{name}": {_SUBDOMAIN_MSG}')]
    return []


def _string_map(value: Any, field: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise bad_request(f"json: cannot unmarshal {type(value).__name__} into Go struct field ObjectMeta.{field}")
    for key, item in value.items():
        if not isinstance(item, str):
            raise bad_request(
                f"json: cannot unmarshal {type(item).__name__} into Go struct field ObjectMeta.{field} of type "
                f"string (key {key!r})"
            )
    return value


def _metadata_causes(meta: Obj) -> list[Cause]:
    causes: list[Cause] = []
    for key, value in _string_map(meta.get("labels"), "metadata.labels").items():
        problem = qualified_name_problem(key)
        if problem:
            causes.append(("metadata.labels", "FieldValueInvalid", f'Invalid value: "{key}": {problem}'))
        problem = label_value_problem(value)
        if problem:
            causes.append(("metadata.labels", "FieldValueInvalid", f'Invalid value: "{value}": {problem}'))
    for key in _string_map(meta.get("annotations"), "metadata.annotations"):
        problem = qualified_name_problem(key.lower())
        if problem:
            causes.append(("metadata.annotations", "FieldValueInvalid", f'Invalid value: "{key}": {problem}'))
    return causes


def validate(rt: ResourceType, obj: Obj) -> None:
    """Raise the apiserver's 422 Invalid (or 400 for undecodable shapes) for a bad object."""
    meta = obj.get("metadata")
    if not isinstance(meta, dict):
        raise bad_request("Object 'metadata' is missing or not an object")
    name = meta.get("name") or ""
    if not isinstance(name, str):
        raise bad_request("json: cannot unmarshal into Go struct field ObjectMeta.metadata.name of type string")
    causes = _name_causes(rt, name) + _metadata_causes(meta)
    if causes:
        raise invalid(rt, name, causes)
