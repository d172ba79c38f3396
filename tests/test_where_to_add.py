"""docs/architecture.md "Where to add" stays true: the files a new plug-in touches are the ones it lists.

Each entry names an example plug-in (its identifiers, module paths and key strings) and lists the files it touches,
the registration points marked so. The test fails when a listed path is missing, when a listed file no longer
names the example (the list would be longer than the truth), or when a `.py` file outside the list names it (the
list would be shorter than the truth: someone added a registration point).
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import cloud_names as registered_clouds
from tests.ast_source import parse
from tests.test_cloud_seam import NAMING_EXEMPT, cloud_names

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
SCANNED = ("components", "policies", "stacks")
EXEMPTION_TABLE = "NAMING_EXEMPT"
"""A list item naming the cloud-seam test's exemption table instead of its files."""
CLOUD_PLACEHOLDER = "<cloud>"


@dataclass(frozen=True)
class Entry:
    title: str
    example: tuple[str, ...]
    paths: tuple[str, ...]
    registrations: int


def entries(text: str) -> list[Entry]:
    """The "Where to add" entries of the architecture doc."""
    section = text[text.index("**Where to add**") :]
    section = section[: section.index("\n\n", section.index("\n- *"))]
    found = []
    for block in re.split(r"\n(?=- \*)", section)[1:]:
        head, *items = re.split(r"\n  - ", block)
        title = re.match(r"- \*(.+?)\*", head)
        assert title is not None, head
        example = head[head.index("Example:") :] if "Example:" in head else ""
        paths = tuple(re.findall(r"`([^`]+)`", item)[0] for item in items)
        marked = sum("registration" in item.split(":", 1)[-1].split("(", 1)[0] for item in items)
        found.append(Entry(title.group(1), tuple(re.findall(r"`([^`]+)`", example)), paths, marked))
    return found


ENTRIES = entries(DOC.read_text())


def _python_files() -> list[Path]:
    return sorted(path for top in SCANNED for path in (ROOT / top).rglob("*.py") if ".venv" not in path.parts)


def _named(tree: ast.AST) -> Iterator[str]:
    """Identifiers, imported modules (``a.b`` and ``a.b.c`` of ``from a.b import c``) and string constants."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
            yield from (alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.value


@functools.cache
def _file_names(path: Path) -> tuple[frozenset[str], frozenset[str]]:
    """What a file names (``_named``), and the words of the cloud names in it (``cloud_names``): parsed once."""
    source = path.read_text()
    words = {word for _, name in cloud_names(source) for word in re.split(r"[^a-z]+", name.lower())}
    return frozenset(_named(parse(source))), frozenset(words)


def _names_example(path: Path, entry: Entry) -> bool:
    named, cloud_words = _file_names(path)
    if entry.example[0] in registered_clouds():  # a cloud: every identifier or type token naming it, and its key
        return entry.example[0] in named or entry.example[0] in cloud_words
    return not named.isdisjoint(entry.example)


def _expanded(path: str) -> list[str]:
    if path == EXEMPTION_TABLE:
        return sorted(NAMING_EXEMPT)
    if CLOUD_PLACEHOLDER in path:
        return [path.replace(CLOUD_PLACEHOLDER, cloud) for cloud in registered_clouds()]
    return [path]


def _covers(listed: list[str], relative: str) -> bool:
    return any(relative == path or (path.endswith("/") and relative.startswith(path)) for path in listed)


def test_the_doc_lists_each_kind_of_plug_in() -> None:
    titles = [e.title for e in ENTRIES]
    assert titles == [
        "a GPU stack kind", "a provisioner", "a stack-wide component", "a cloud", "a GPU model", "a policy rule"
    ]  # fmt: skip
    assert all(e.example and e.paths and e.registrations >= 1 for e in ENTRIES)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.title)
def test_every_listed_path_exists(entry: Entry) -> None:
    missing = [p for path in entry.paths for p in _expanded(path) if not (ROOT / p).exists()]
    assert missing == []


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.title)
def test_the_example_is_named_exactly_in_the_listed_files(entry: Entry) -> None:
    listed = [p for path in entry.paths for p in _expanded(path)]
    naming = {path.relative_to(ROOT).as_posix() for path in _python_files() if _names_example(path, entry)}
    unlisted = sorted(p for p in naming if not _covers(listed, p))
    assert unlisted == [], f"{entry.title}: these files name {entry.example[0]!r} too; list them in {DOC.name}"
    plain = [p for p in entry.paths if p.endswith(".py") and CLOUD_PLACEHOLDER not in p]
    stale = [p for p in plain if p not in naming]
    assert stale == [], f"{entry.title}: these listed files do not name {entry.example[0]!r}; drop them from {DOC.name}"
    for path in entry.paths:
        if path.endswith("/") or CLOUD_PLACEHOLDER in path:
            assert any(_covers(_expanded(path), p) for p in naming), f"nothing under {path} names {entry.example[0]!r}"


def test_the_parser_reads_titles_examples_paths_and_registrations() -> None:
    text = (
        "**Where to add** (...):\n\n- *a thing*. Example: `thing`, `Thing`.\n  - `a/b.py`: its code\n"
        "  - `a/c.py`: registration (its entry)\n  - `a/d/`: its package\n\nAfter.\n"
    )
    assert entries(text) == [Entry("a thing", ("thing", "Thing"), ("a/b.py", "a/c.py", "a/d/"), 1)]
