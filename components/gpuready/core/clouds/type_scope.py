"""A set of type tokens whose members the clouds decide one token at a time (``TypeScope``). Pure.

The policy pack and the readers ask "is this resource type one of the pool types?" for each resource of a plan;
the answer is the provisioners', held by the cloud profiles. A ``TypeScope`` asks only the clouds that may own
the token (the registry's ``profiles_for_type``: their registered type prefixes start it), so a GKE plan's
resources load no other cloud (issue #32). Iterating one, or its length, loads every cloud: only tests and the
pack's documentation do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Set


class TypeScope(Set[str]):
    """Type tokens decided per token: ``token in scope`` asks the clouds that may own it, once per token."""

    def __init__(self, member: Callable[[str], bool], every: Callable[[], Iterable[str]]) -> None:
        self._member = member
        self._every = every
        self._answers: dict[str, bool] = {}

    def __contains__(self, token: object) -> bool:
        if not isinstance(token, str):
            return False
        found = self._answers.get(token)
        if found is None:
            found = self._answers[token] = self._member(token)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._every()))

    def __len__(self) -> int:
        return len(set(self._every()))

    def __or__(self, other: Set[object]) -> TypeScope:
        return TypeScope(lambda t: t in self or t in other, lambda: {*self, *(str(t) for t in other)})

    __ror__ = __or__

    def __and__(self, other: Set[object]) -> TypeScope:
        return TypeScope(lambda t: t in self and t in other, lambda: {t for t in self if t in other})

    __rand__ = __and__

    def __repr__(self) -> str:
        return f"TypeScope({sorted(t for t, known in self._answers.items() if known)!r} known so far)"
