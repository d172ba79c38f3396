"""Reading a ``gpuready plan -o json`` file for ``gpuready diff``: every way it can be wrong is a clear error. Pure.

Whatever the file holds (truncated JSON, another program's JSON, an error report, wrong types, numbers JSON
cannot hold in Python, nesting deep enough to exhaust the stack, bytes that are not UTF-8, a file of gigabytes),
the answer is ``PlanFormatError`` naming the file, the place in it (``resources[3].urn``), what was expected and
how to get a good file: never a traceback. Two plans are compared only when they are of the same stack, project
and plan format (``comparable``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from gpuready.core.plan_format import PLAN_FORMAT
from gpuready.errors import GpuReadyError

MAX_PLAN_BYTES = 512 * 1024 * 1024
"""A 1,000-pool plan is about 12 MB; a file past this is not a plan (or is a device such as /dev/zero)."""
MAX_DEPTH = 100
"""Deepest nesting of arrays and objects accepted; Pulumi inputs nest a few levels, a hostile file thousands."""
MAX_INT_DIGITS = 40
"""Longest integer accepted: wider than any count, size or id a resource input holds."""
HINT = "make it with `gpuready plan -o json > FILE` (exit 0 or 1: a plan; 2 or 3 print an error object instead)"


class PlanFormatError(GpuReadyError, ValueError):
    """The input is not a ``gpuready plan -o json`` document."""


class PlanReadError(PlanFormatError):
    """The plan file cannot be read at all (missing, a directory, no permission)."""


class PlanMismatchError(GpuReadyError, ValueError):
    """Two plans that are not of the same stack, project or plan format: their diff would mean nothing."""


def load_plan(path: str, which: str) -> dict[str, Any]:
    """The plan document at ``path`` (``which``: ``old`` / ``new``, for messages), checked; raises
    ``PlanFormatError``."""
    where = f"the {which} plan {path}"
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(MAX_PLAN_BYTES + 1)
    except OSError as error:
        raise PlanReadError(f"{where}: {error.strerror or error}") from None
    if len(data) > MAX_PLAN_BYTES:
        raise PlanFormatError(f"{where} is larger than {MAX_PLAN_BYTES // 2**20} MiB; not a plan. {HINT}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PlanFormatError(f"{where} is not UTF-8 text (byte {error.start}); not a plan. {HINT}") from None
    document = parse(text, where)
    check_document(document, where)
    return document


def parse(text: str, where: str) -> dict[str, Any]:
    """JSON text as a document, refusing what JSON or Python cannot hold faithfully."""
    if not text.strip():
        raise PlanFormatError(f"{where} is empty. {HINT}")
    try:
        document = json.loads(text, parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as error:
        raise PlanFormatError(
            f"{where} is not JSON: {error.msg} at line {error.lineno} column {error.colno}"
            f"{' (the file ends early: truncated?)' if error.pos >= len(text.rstrip()) else ''}. {HINT}"
        ) from None
    except _BadNumber as error:
        raise PlanFormatError(f"{where}: {error}. {HINT}") from None
    except RecursionError:
        raise PlanFormatError(f"{where} nests arrays or objects too deeply to be a plan. {HINT}") from None
    if not isinstance(document, dict):
        raise PlanFormatError(f"{where} is a JSON {_kind(document)}, not a plan object. {HINT}")
    _check_depth(document, where)
    return document


class _BadNumber(PlanFormatError):
    """A number JSON holds but a plan never does (raised while parsing, then given the file's name)."""


def _no_constant(name: str) -> Any:
    raise _BadNumber(f"{name} is not a number JSON allows")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _BadNumber(f"an integer of {len(text)} digits is not a count, size or id any plan holds")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _BadNumber(f"the number {text[:40]} is too large")
    return value


def _check_depth(document: object, where: str) -> None:
    stack: list[tuple[object, int]] = [(document, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise PlanFormatError(f"{where} nests arrays or objects deeper than {MAX_DEPTH}; not a plan. {HINT}")
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)


_RESOURCE_FIELDS: Mapping[str, tuple[type, ...]] = {"urn": (str,), "type": (str,), "name": (str,)}
_RESOURCE_OPTIONAL: Mapping[str, tuple[type, ...]] = {
    "parent": (str,),
    "custom": (bool,),
    "provider": (str,),
    "inputs": (dict,),
    "options": (dict,),
    "dependencies": (list,),
}
_POOL_FIELDS: Mapping[str, tuple[type, ...]] = {"name": (str,)}
_POOL_OPTIONAL: Mapping[str, tuple[type, ...]] = {
    "accelerator": (str, type(None)),
    "gpusPerNode": (int, type(None)),
    "minNodes": (int,),
    "maxNodes": (int,),
    "schedulablePerNode": (dict,),
    "schedulableAtMinSize": (dict,),
    "schedulableAtMaxSize": (dict,),
    "nodeLabels": (dict,),
    "nodeSelector": (dict,),
}


def check_document(document: Mapping[str, Any], where: str) -> None:
    """The keys ``gpuready diff`` reads have the types the plan format gives them."""
    if "error" in document and "resources" not in document:
        error = document.get("error")
        kind = error.get("kind") if isinstance(error, Mapping) else None
        raise PlanFormatError(f"{where} is gpuready's error report ({kind or 'error'}), not a plan. {HINT}")
    for key, kinds in (("stack", (str,)), ("project", (str,)), ("resources", (list,))):
        if key not in document:
            raise PlanFormatError(f"{where} has no {key!r}; not a plan. {HINT}")
        _expect(document[key], kinds, f"{where}: {key}")
    version = document.get("formatVersion")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise PlanFormatError(f"{where}: formatVersion is {version!r}, not a whole number. {HINT}")
    seen: set[str] = set()
    for index, resource in enumerate(document["resources"]):
        path = f"{where}: resources[{index}]"
        _check_entry(resource, path, _RESOURCE_FIELDS, _RESOURCE_OPTIONAL)
        if resource["urn"] in seen:
            raise PlanFormatError(f"{path}: urn {resource['urn']!r} appears twice; a plan names each once. {HINT}")
        seen.add(resource["urn"])
        for i, urn in enumerate(resource.get("dependencies") or ()):
            _expect(urn, (str,), f"{path}.dependencies[{i}]")
        for option in ("ignoreChanges", "replaceOnChanges"):
            for i, field in enumerate((resource.get("options") or {}).get(option) or ()):
                _expect(field, (str,), f"{path}.options.{option}[{i}]")
    pools = document.get("pools", [])
    _expect(pools, (list,), f"{where}: pools")
    names: set[str] = set()
    for index, pool in enumerate(pools):
        path = f"{where}: pools[{index}]"
        _check_entry(pool, path, _POOL_FIELDS, _POOL_OPTIONAL)
        if pool["name"] in names:
            raise PlanFormatError(f"{path}: pool {pool['name']!r} appears twice. {HINT}")
        names.add(pool["name"])
        for key in ("minNodes", "maxNodes", "gpusPerNode"):
            if isinstance(pool.get(key), int) and pool[key] < 0:
                raise PlanFormatError(f"{path}.{key} is {pool[key]}, below 0. {HINT}")
        for key in ("schedulablePerNode", "schedulableAtMinSize", "schedulableAtMaxSize"):
            for name, units in (pool.get(key) or {}).items():
                if isinstance(units, bool) or not isinstance(units, int) or units < 0:
                    raise PlanFormatError(f"{path}.{key}[{name!r}] is {units!r}, not a count of units. {HINT}")
        for key in ("nodeLabels", "nodeSelector"):
            for name, value in (pool.get(key) or {}).items():
                _expect(value, (str,), f"{path}.{key}[{name!r}]")


def _check_entry(
    entry: object, path: str, required: Mapping[str, tuple[type, ...]], optional: Mapping[str, tuple[type, ...]]
) -> None:
    if not isinstance(entry, dict):
        raise PlanFormatError(f"{path} is a JSON {_kind(entry)}, not an object. {HINT}")
    for key, kinds in required.items():
        if key not in entry:
            raise PlanFormatError(f"{path} has no {key!r}. {HINT}")
        _expect(entry[key], kinds, f"{path}.{key}")
    for key, kinds in optional.items():
        if key in entry:
            _expect(entry[key], kinds, f"{path}.{key}")


def _expect(value: object, kinds: tuple[type, ...], path: str) -> None:
    wrong_bool = isinstance(value, bool) and bool not in kinds
    if wrong_bool or not isinstance(value, kinds):
        wanted = " or ".join(_NAMES[k] for k in kinds)
        raise PlanFormatError(f"{path} is a JSON {_kind(value)}, expected {wanted}. {HINT}")


_NAMES: Mapping[type, str] = {
    str: "a string", int: "a whole number", bool: "true or false", dict: "an object", list: "an array",
    float: "a number", type(None): "null",
}  # fmt: skip


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def comparable(old: Mapping[str, Any], new: Mapping[str, Any], *, force: bool) -> list[str]:
    """What makes the two plans' diff meaningless: another stack, project or plan format. Raises
    ``PlanMismatchError`` listing every mismatch, unless ``force``; then returns them as warnings."""
    mismatches: list[str] = []
    for key in ("project", "stack"):
        if old[key] != new[key]:
            mismatches.append(
                f"the plans are of different {key}s ({old[key]!r} and {new[key]!r}): every resource would show as "
                "deleted and created"
            )
    versions = (old.get("formatVersion"), new.get("formatVersion"))
    for which, version in zip(("old", "new"), versions, strict=True):
        if version != PLAN_FORMAT:
            said = "none (written by an older gpuready)" if version is None else f"{version!r}"
            mismatches.append(
                f"the {which} plan's format is {said}, this gpuready reads {PLAN_FORMAT}: re-plan it with this "
                "version, or fields would show as changed that are only written differently"
            )
    if mismatches and not force:
        raise PlanMismatchError("; ".join(mismatches) + "; pass --force to compare them anyway")
    return mismatches


def pools_of(document: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    """The plan's ``pools`` (gpuready's pool components), or none."""
    pools = document.get("pools")
    return pools if isinstance(pools, list) else []
