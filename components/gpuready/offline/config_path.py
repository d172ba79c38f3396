"""Config paths, as ``pulumi config set --path`` reads them: ``gpuready:verifySkipPools[0]=a``. Pure.

Mirrors pulumi/pulumi ``sdk/go/common/resource/config/map.go`` (``parseKeyPath``, ``setValue``,
``adjustObjectValue``) and ``sdk/go/common/resource/properties_path.go`` (the path syntax): the key's name is a
property path whose first segment is the config key; ``.name``, ``[0]`` and ``["quoted.name"]`` step into
mappings and lists; missing containers are created; an index may be the list's length (append), never more; the
value is ``true``/``false`` as a boolean, an integer (no leading zero) as a number, anything else as text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gpuready.errors import shown
from gpuready.offline.project import OfflineProjectError

Segment = str | int
PATH_HINT = "e.g. gpuready:verifySkipPools[0]=a, or gpuready:key.sub=value (pulumi config set --path syntax)"

_NAMESPACE = re.compile(r"[^:.\[\]]+:")
_FIRST = re.compile(r"[^.\[\]]+")
_STEP = re.compile(r'\.([^.\[\]]+)|\[([0-9]+)\]|\["((?:[^"\\]|\\.)*)"\]')
_INT = re.compile(r"[+-]?[0-9]+")  # strconv.Atoi; a leading zero keeps the text (below)


def parse_path(text: str) -> tuple[str, tuple[Segment, ...]]:
    """``ns:name[0].sub`` -> (``ns:name``, ``(0, "sub")``). The namespace ends at the first ``:``."""
    text = text.strip()
    prefix = _NAMESPACE.match(text)
    namespace = prefix.group() if prefix else ""
    name = text[len(namespace) :]
    first = _FIRST.match(name)
    if first is None:
        raise OfflineProjectError(f"config path {shown(text)} has no key", PATH_HINT, path=text)
    segments: list[Segment] = []
    at = first.end()
    while at < len(name):
        step = _STEP.match(name, at)
        if step is None:
            problem = f"config path {shown(text)}: cannot read {shown(name[at:])}"
            raise OfflineProjectError(problem, PATH_HINT, path=text)
        field, index, quoted = step.groups()
        segments.append(int(index) if index is not None else field if field is not None else quoted.replace('\\"', '"'))
        at = step.end()
    return f"{namespace}{first.group()}", tuple(segments)


def path_value(text: str) -> object:
    """The value of a path override, typed as Pulumi types it (``adjustObjectValue``)."""
    if text in ("true", "false"):
        return text == "true"
    if len(text) > 1 and text.startswith("0"):
        return text
    if _INT.fullmatch(text) and -(2**63) <= int(text) < 2**63:
        return int(text)
    return text


def set_path(current: object, segments: Sequence[Segment], value: object, where: str) -> object:
    """``current`` with ``value`` at ``segments`` (a new structure; ``current`` is not changed)."""
    if not segments:
        return value
    head, rest = segments[0], segments[1:]
    if isinstance(head, int):
        if current is not None and not isinstance(current, list):
            raise _not_a(where, "list", current)
        items = list(current or [])
        if head > len(items):
            count = f"{len(items)} item{'' if len(items) == 1 else 's'}"
            raise OfflineProjectError(
                f"config path {where}[{head}]: array index out of range (the list has {count})",
                f"set [{len(items)}] to add an item at the end",
                path=f"{where}[{head}]",
            )
        child = set_path(items[head] if head < len(items) else None, rest, value, f"{where}[{head}]")
        if head == len(items):
            items.append(child)
        else:
            items[head] = child
        return items
    if current is not None and not isinstance(current, dict):
        raise _not_a(where, "mapping", current)
    mapping = dict(current or {})
    mapping[head] = set_path(mapping.get(head), rest, value, f"{where}.{head}")
    return mapping


def _not_a(where: str, kind: str, current: object) -> OfflineProjectError:
    return OfflineProjectError(
        f"config path {where}: is not a {kind}; it holds {shown(current)}",
        "set the whole value with --set, or a path that matches its shape",
        path=where,
        value=current,
    )
