"""The YAML files gpuready writes into resources (a scheduler's configuration, a device plugin's sharing configs,
a kubeconfig), and the one reader of them. Pure.

``dump`` gives exactly what ``yaml.safe_dump(document, sort_keys=False, default_flow_style=False)`` gives. PyYAML
writes each document event by event through its serializer and emitter, about 2 M instructions for a kubeconfig;
the documents gpuready writes are small mappings of names, labels and numbers, which ``dump`` writes directly
when every value is one whose spelling it knows for certain, by PyYAML's own rules (``yaml/emitter.py``
``analyze_scalar`` and ``choose_scalar_style``; ``yaml/resolver.py`` for the strings that would read back as
another type and so are quoted):

- mappings with string keys, lists, ``None``, booleans and integers;
- ASCII strings of letters, digits, spaces and ``_./=+~$^()<;:\\-`` without a leading indicator (``?:-``, a
  space, ``---``/``...``), ``": "`` or a final colon: written plain, or single-quoted when the resolver would read
  the plain text as another type (``'true'``, ``'123'``, ``''``);
- a plain string that runs past column 80 folded where PyYAML's ``write_plain`` folds it (at each lone space met
  past that column, continuing two columns in), and keys neither empty nor long (PyYAML writes those as
  ``? key``).

Any other document (a float, a tuple, a long quoted string, a non-ASCII name) is PyYAML's to write, whole.
``tests/core/test_yaml_text.py`` compares both on generated documents.

``load`` reads such a file back: a text this process wrote (``remember``) is the document it was written from (a
copy), without parsing it again; any other text is ``yaml.safe_load``'s. The policy rules that read a scheduler's
configuration or a device plugin's configs in a ConfigMap use it.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from gpuready.errors import GpuReadyError

__all__ = ["dump", "load"]

_BEST_WIDTH = 80
"""PyYAML's line width: a plain or quoted scalar with a space may fold past this column."""
_LONGEST_KEY = 100
"""Keys shorter than this stay simple keys (PyYAML: under 128 characters)."""
_SAFE = re.compile(r"[A-Za-z0-9_./=+~$^()<;:\\ -]*")
"""The characters ``dump`` writes in a scalar itself (with no ``": "`` and no final colon, checked apart)."""
_SPACES = re.compile("( +)")
_LEADING = frozenset("#,[]{}&*!|>'\"%@`?:- ")
_STR_TAG = "tag:yaml.org,2002:str"
_RESOLVE: Callable[..., str] = yaml.resolver.Resolver().resolve  # what SafeDumper's serializer asks of a scalar
_WRITTEN: dict[str, Any] = {}
"""Text ``dump`` wrote -> a copy of the document it wrote it from, for this process."""


class _Unsure(GpuReadyError):
    """A value ``dump`` does not spell itself: PyYAML writes the whole document (``dump`` catches it; it never
    reaches a caller)."""


def dump(document: Any, *, remember: bool = False) -> str:
    """``yaml.safe_dump(document, sort_keys=False, default_flow_style=False)``; ``remember``: a copy of the document
    is what ``load`` gives for the text (a file a policy rule reads back)."""
    lines: list[str] = []
    try:
        if type(document) is dict and document:
            _mapping(document, 0, lines, "")
        elif type(document) is list and document:
            _sequence(document, 0, lines, "")
        elif type(document) is dict:
            lines.append("{}")
        else:
            raise _Unsure
        text = "\n".join(lines) + "\n"
    except _Unsure:
        return str(yaml.safe_dump(document, sort_keys=False, default_flow_style=False))
    if remember:
        _WRITTEN.setdefault(text, copy.deepcopy(document))
    return text


def load(text: str) -> Any:
    """``yaml.safe_load(text)``; a text ``dump`` wrote in this process is a copy of its document."""
    written = _WRITTEN.get(text, _WRITTEN)
    if written is not _WRITTEN:
        return copy.deepcopy(written)
    return yaml.safe_load(text)


def _mapping(value: Mapping[Any, Any], indent: int, lines: list[str], first: str) -> None:
    """``value``'s keys at column ``indent``; the first on the line ``first`` began (``"- "`` items)."""
    pad = " " * indent
    for index, (key, item) in enumerate(value.items()):
        if type(key) is not str or not key or len(key) >= _LONGEST_KEY:  # PyYAML: "? key" for an empty or long one
            raise _Unsure
        head = f"{first if index == 0 else pad}{_scalar(key, indent, None)}:"
        _value(item, indent, lines, head, nested_indent=indent + 2)


def _sequence(value: list[Any], indent: int, lines: list[str], first: str) -> None:
    pad = " " * indent
    for index, item in enumerate(value):
        head = f"{first if index == 0 else pad}-"
        if type(item) is dict and item:
            _mapping(item, indent + 2, lines, head + " ")
        elif type(item) is list and item:
            _sequence(item, indent + 2, lines, head + " ")
        else:
            lines.append(f"{head} {_inline(item, len(head) + 1, indent + 2)}")


def _value(item: Any, indent: int, lines: list[str], head: str, nested_indent: int) -> None:
    """A mapping entry's value after ``head`` (``key:``): nested on the next lines, or on the same line."""
    if type(item) is dict and item:
        lines.append(head)
        _mapping(item, nested_indent, lines, " " * nested_indent)
    elif type(item) is list and item:
        lines.append(head)
        _sequence(item, indent, lines, " " * indent)  # PyYAML does not indent a sequence under a mapping key
    else:
        lines.append(f"{head} {_inline(item, len(head) + 1, indent + 2)}")


def _inline(item: Any, column: int, fold_indent: int) -> str:
    """A value on the line it starts at ``column``; a long plain one continues on lines indented ``fold_indent``."""
    if item is None:
        return "null"
    if item is True:
        return "true"
    if item is False:
        return "false"
    if type(item) is int:
        return str(item)
    if type(item) is dict:  # empty (non-empty ones are nested)
        return "{}"
    if type(item) is list:
        return "[]"
    if type(item) is str:
        return _scalar(item, column, fold_indent)
    raise _Unsure


def _scalar(text: str, column: int, fold_indent: int | None) -> str:
    """``text`` plain, or single-quoted when plain it would read back as another type; ``column``: where it starts;
    ``fold_indent``: where its continuation lines start (None: a key, which PyYAML never folds)."""
    if not text:
        return "''"
    if (
        text[0] in _LEADING
        or text[-1] in " :"
        or text.startswith(("---", "..."))
        or ": " in text
        or not text.isascii()
        or _SAFE.fullmatch(text) is None
    ):
        raise _Unsure
    long = fold_indent is not None and " " in text and column + len(text) > _BEST_WIDTH
    if _RESOLVE(yaml.ScalarNode, text, (True, False)) == _STR_TAG:
        return _folded(text, column, fold_indent) if long and fold_indent is not None else text
    if long:
        raise _Unsure
    return f"'{text}'"


def _folded(text: str, column: int, indent: int) -> str:
    """A plain scalar as PyYAML's ``write_plain`` folds it: a lone space met past column 80 becomes a line break
    and ``indent`` spaces; a run of spaces stays."""
    parts: list[str] = []
    for piece in _SPACES.split(text):  # words and the runs of spaces between them, alternately
        if piece.startswith(" ") and len(piece) == 1 and column > _BEST_WIDTH:
            parts.append("\n" + " " * indent)
            column = indent
        else:
            parts.append(piece)
            column += len(piece)
    return "".join(parts)
