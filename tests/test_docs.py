"""The README is the way in and docs/ the reference: the quick start is on the README's first screen, every
relative link of the README and of docs/*.md reaches a file and heading that exist, and the README keeps no
status-by-issue table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
SCREEN = 45
"""Lines of one terminal screen: the quick start ends within them."""
PENDING: frozenset[Path] = frozenset()
"""Docs files linked before they are written (none now): their links are not followed."""
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors, fenced = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        fenced ^= line.startswith("```")
        heading = re.match(r"^#{1,6} (.+)$", line)
        if heading and not fenced:
            anchors.add(_slug(heading.group(1)))
    return anchors


def _links() -> list[tuple[Path, str]]:
    found = []
    for doc in (README, *DOCS):
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
        text = re.sub(r"`[^`\n]*`", "", text)  # code spans: a regex's [a-z](...) is no link
        found += [(doc, target) for target in LINK.findall(text) if not target.startswith(("http:", "https:"))]
    return found


@pytest.mark.parametrize(("doc", "target"), _links(), ids=lambda value: str(value).rsplit("/", 1)[-1])
def test_every_relative_link_reaches_a_file_and_heading(doc: Path, target: str) -> None:
    path, _, anchor = target.partition("#")
    reached = (doc.parent / path).resolve() if path else doc
    if reached in PENDING and not reached.exists():
        pytest.skip(f"{reached.relative_to(ROOT)} is written on another branch (#31 item 1)")
    assert reached.exists(), f"{doc.name}: {target} does not exist"
    if anchor and reached.suffix == ".md":
        assert anchor in _anchors(reached), f"{doc.name}: no heading #{anchor} in {reached.name}"


def test_the_quick_start_is_on_the_first_screen() -> None:
    first_screen = "\n".join(README.read_text(encoding="utf-8").splitlines()[:SCREEN])
    assert "## Quick start" in first_screen
    for command in ("pip install", "gpuready new", "gpuready plan", "pulumi up", "gpuready check"):
        assert command in first_screen, command


def test_the_readme_links_every_reference_file_and_keeps_no_status_table() -> None:
    text = README.read_text(encoding="utf-8")
    assert {doc.name for doc in DOCS} <= {Path(target.partition("#")[0]).name for target in LINK.findall(text)}
    assert not re.search(r"\| done \(issues? #\d+", text)
