"""Nested config data: Helm's value merge and field paths without list indexes. Pure.

One home for both, shared by the GPU stack's extra Helm values (``gpu_stack.extra_values``), the pools' cloud
input overrides (``resource_inputs``) and the lifecycle tables (``lifecycle``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_INDEX = re.compile(r"\[[^\[\]]*\]")
"""A bracketed part with no bracket inside."""


def deep_merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` laid over it as Helm merges values: a mapping merges into a mapping key by key, any
    other value replaces."""
    merged = dict(base)
    for key, value in extra.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def plain_path(path: str) -> str:
    """``nodeConfig.guestAccelerators[0].type`` -> ``nodeConfig.guestAccelerators.type``."""
    if "[" not in path and "]" not in path:
        return path
    simple = _INDEX.sub("", path)  # list indexes: the common case, in one pass
    if "[" not in simple and "]" not in simple:
        return simple
    out, depth = [], 0
    for char in path:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)
