"""``TypeScope``: a set of type tokens decided one token at a time, each answer asked once; its unions and
intersections with plain sets stay scopes, and iterating one lists every member."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gpuready.core.clouds.type_scope import TypeScope

EVERY = {"a:x", "a:y", "b:x"}


def _scope(asked: list[str]) -> TypeScope:
    def member(token: str) -> bool:
        asked.append(token)
        return token in EVERY

    return TypeScope(member, lambda: EVERY)


def test_a_token_is_asked_once_and_only_when_tested() -> None:
    asked: list[str] = []
    scope = _scope(asked)
    assert asked == []
    assert "a:x" in scope and "a:x" in scope and "c:z" not in scope
    assert object() not in scope  # not a token: never asked
    assert asked == ["a:x", "c:z"]


def test_iterating_a_scope_lists_every_member_in_order() -> None:
    scope = _scope([])
    assert list(scope) == ["a:x", "a:y", "b:x"] and len(scope) == 3


@pytest.mark.parametrize(
    ("combine", "inside", "outside", "members"),
    [
        (lambda s: s | frozenset({"k:v"}), ["a:x", "k:v"], ["c:z"], ["a:x", "a:y", "b:x", "k:v"]),
        (lambda s: frozenset({"k:v"}) | s, ["a:x", "k:v"], ["c:z"], ["a:x", "a:y", "b:x", "k:v"]),
        (lambda s: s & frozenset({"a:x", "k:v"}), ["a:x"], ["a:y", "k:v"], ["a:x"]),
        (lambda s: frozenset({"a:x", "k:v"}) & s, ["a:x"], ["a:y", "k:v"], ["a:x"]),
    ],
    ids=["union", "union-right", "intersection", "intersection-right"],
)
def test_combined_with_a_set_it_stays_a_scope(
    combine: Callable[[TypeScope], object], inside: list[str], outside: list[str], members: list[str]
) -> None:
    asked: list[str] = []
    combined = combine(_scope(asked))
    assert isinstance(combined, TypeScope)
    assert all(t in combined for t in inside) and not any(t in combined for t in outside)
    assert list(combined) == members


def test_a_set_that_shares_no_token_with_the_scope_is_disjoint() -> None:
    assert _scope([]).isdisjoint({"c:z"}) and not _scope([]).isdisjoint({"c:z", "b:x"})
