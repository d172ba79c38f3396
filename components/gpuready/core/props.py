"""Reading property values the way the policy engine delivers them. Pure.

The engine hands policies read-only ``Mapping``/``Sequence`` proxies (never ``dict``/``list``), every
number as a float, and Helm ``values`` keys as written. These helpers accept exactly that, and plain
Python values too, so rules can be tested on both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def as_mapping(value: object) -> Mapping[str, Any] | None:
    """``value`` when it is a mapping (a proxy or a dict), else None."""
    return value if isinstance(value, Mapping) else None


def as_list(value: object) -> Sequence[Any]:
    """``value`` when it is a sequence other than a string, else an empty tuple."""
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return value
    return ()


def as_text(value: object) -> str | None:
    """``value`` when it is a string, else None."""
    return value if isinstance(value, str) else None


def as_number(value: object) -> float | None:
    """``value`` as a float when it is a number (never a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def as_flag(value: object) -> bool | None:
    """A Helm-style boolean: ``True``/``False`` or the strings ``"true"``/``"false"``; None otherwise."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return None


def dig(value: object, *path: str) -> Any:
    """The value at ``path`` inside nested mappings, or None when any step is missing."""
    for key in path:
        mapping = as_mapping(value)
        if mapping is None or key not in mapping:
            return None
        value = mapping[key]
    return value


def text_map(value: object) -> dict[str, str]:
    """A mapping of strings (labels, node selectors) as a dict; non-string values are skipped."""
    mapping = as_mapping(value)
    if mapping is None:
        return {}
    return {str(k): v for k, v in mapping.items() if isinstance(v, str)}


def plain(value: object) -> Any:
    """``value`` as plain JSON-like data for a message: proxies unwrapped, whole floats as ints."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    mapping = as_mapping(value)
    if mapping is not None:
        return {str(k): plain(v) for k, v in mapping.items()}
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        return [plain(v) for v in value]
    return value


def show(value: object) -> str:
    """``value`` for a message: ``repr`` of its plain form."""
    return repr(plain(value))
