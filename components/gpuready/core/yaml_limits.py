"""YAML loading with limits, for every YAML text a user hands gpuready (stack files, config values, kubeconfigs).

PyYAML's safe loaders build plain data only, but nothing bounds what that data costs: an alias bomb (a few lines
whose anchors refer to anchors, 9 aliases a level for 7 levels) stays small in memory as shared objects and
explodes to millions of nodes when echoed or encoded; a list nested 3,000 deep exhausts Python's recursion
limit. ``load_yaml`` first walks the parser's events (a flat stream, no recursion, no objects built) and counts
what the document would expand to, then loads it. Errors name a line and never quote it: the text may hold
credentials. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

import yaml

from gpuready.errors import GpuReadyError

MAX_CHARACTERS = 4 * 1024 * 1024
"""Longest document: 4 Mi characters (a stack file or a kubeconfig is a few kilobytes)."""
MAX_DEPTH = 64
"""Deepest nesting of mappings and sequences (pool specs nest 4 levels)."""
MAX_NODES = 200_000
"""Most nodes the document may hold with every alias expanded (scalars, mappings and sequences each count 1)."""

SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present


class YamlLimitError(GpuReadyError):
    """A YAML document over one of the limits: too long, too deep, or too many nodes once aliases expand."""


def load_yaml(text: str, loader: type[Any] | None = None, *, checked: bool = False) -> Any:
    """``yaml.load(text, loader)`` (default: the safe loader) once ``check_limits`` passes; ``checked``: it passed
    already for ``text`` (with any loader: the parser's events, which it counts, do not depend on the loader's
    resolver or constructor)."""
    chosen = loader or SAFE_LOADER
    if not checked:
        check_limits(text, chosen)
    return yaml.load(text, Loader=chosen)


def check_limits(text: str, loader: type[Any] | None = None) -> None:
    """Raise ``YamlLimitError`` when ``text`` is too long, nests too deep or expands (aliases) to too many nodes;
    ``yaml.YAMLError`` when it does not parse."""
    if len(text) > MAX_CHARACTERS:
        raise YamlLimitError(
            f"{len(text):,} characters is over the limit of {MAX_CHARACTERS:,}; is this the right file?"
        )
    expanded: dict[str, int] = {}  # anchor -> nodes it stands for
    open_nodes: list[tuple[int, str | None]] = []  # (node count so far, anchor) per open mapping/sequence
    count = 0  # nodes in the innermost open collection (or at top level)
    total = 0
    for event in yaml.parse(text, Loader=loader or SAFE_LOADER):
        if isinstance(event, yaml.CollectionStartEvent):
            open_nodes.append((count, event.anchor))
            count = 1
            total += 1
            if len(open_nodes) > MAX_DEPTH:
                raise YamlLimitError(f"nested deeper than {MAX_DEPTH} levels at {_line(event)}")
        elif isinstance(event, yaml.CollectionEndEvent):
            outer, anchor = open_nodes.pop()
            if anchor:
                expanded[anchor] = count
            count += outer
        elif isinstance(event, yaml.ScalarEvent):
            count += 1
            total += 1
            if event.anchor:
                expanded[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            size = expanded.get(event.anchor or "", 1)
            count += size
            total += size
        else:
            continue
        if total > MAX_NODES:
            raise YamlLimitError(
                f"expands to more than {MAX_NODES:,} values once its aliases (*name) are resolved, at {_line(event)}; "
                "write the values out instead of nesting aliases"
            )


def yaml_problem(error: yaml.YAMLError) -> str:
    """``line 3, column 7: <what the parser says>``, without the offending line (it may hold a secret)."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    problem = getattr(error, "problem", None) or getattr(error, "context", None) or type(error).__name__
    return f"{where}{problem}"


def _line(event: yaml.Event) -> str:
    mark = event.start_mark
    return f"line {mark.line + 1}" if mark is not None else "an unknown line"
