"""Label and field selectors with the apiserver's grammar (k8s.io/apimachinery labels.Parse, fields.ParseSelector)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

_NAME_RE = re.compile(r"^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$")
_DNS1123_SUBDOMAIN_RE = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
_SPECIAL = "=!(),<>"


class SelectorError(ValueError):
    """A malformed selector; the HTTP layer answers 400 BadRequest with this message."""


def qualified_name_problem(key: str) -> str | None:
    """Why `key` is not a valid label key (an optional DNS-subdomain prefix and a name), or None."""
    prefix, slash, name = key.rpartition("/")
    if slash and not prefix:
        return "prefix part must be non-empty"
    if slash and (len(prefix) > 253 or not _DNS1123_SUBDOMAIN_RE.match(prefix)):
        return "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters"
    if not name:
        return "name part must be non-empty"
    if len(name) > 63:
        return "name part must be no more than 63 characters"
    if not _NAME_RE.match(name):
        return (
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end "
            "with an alphanumeric character"
        )
    return None


def label_value_problem(value: str) -> str | None:
    if len(value) > 63:
        return "must be no more than 63 characters"
    if value and not _NAME_RE.match(value):
        return (
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
            "and must start and end with an alphanumeric character"
        )
    return None


@dataclass(frozen=True)
class Requirement:
    key: str
    operator: str  # exists, !exists, =, ==, !=, in, notin, gt, lt
    values: tuple[str, ...] = ()

    def matches(self, labels: Mapping[str, str]) -> bool:
        op = self.operator
        if op == "exists":
            return self.key in labels
        if op == "!exists":
            return self.key not in labels
        if op in ("=", "==", "in"):
            return self.key in labels and labels[self.key] in self.values
        if op in ("!=", "notin"):
            return self.key not in labels or labels[self.key] not in self.values
        if self.key not in labels:
            return False
        try:
            have = int(labels[self.key])
        except ValueError:
            return False
        want = int(self.values[0])
        return have > want if op == "gt" else have < want


@dataclass(frozen=True)
class LabelSelector:
    requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str] | None) -> bool:
        have = labels or {}
        return all(r.matches(have) for r in self.requirements)

    @property
    def empty(self) -> bool:
        return not self.requirements


def _lex(text: str) -> list[str]:
    tokens: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch in _SPECIAL:
            pair = text[i : i + 2]
            if pair in ("==", "!="):
                tokens.append(pair)
                i += 2
            else:
                tokens.append(ch)
                i += 1
        else:
            j = i
            while j < len(text) and not text[j].isspace() and text[j] not in _SPECIAL:
                j += 1
            tokens.append(text[i:j])
            i = j
    return tokens


def _is_identifier(token: str | None) -> bool:
    return token is not None and token not in ("in", "notin") and token[0] not in _SPECIAL


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = _lex(text)
        self.pos = 0

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str | None:
        token = self.peek()
        self.pos += 1
        return token

    def parse(self) -> LabelSelector:
        requirements: list[Requirement] = []
        if self.peek() is None:
            return LabelSelector()
        while True:
            requirements.append(self.requirement())
            token = self.take()
            if token is None:
                break
            if token != ",":
                raise SelectorError(f"found '{token}', expected: ',' or 'end of string'")
            if self.peek() is None:
                raise SelectorError("found 'end of string', expected: identifier after ','")
        return LabelSelector(tuple(requirements))

    def requirement(self) -> Requirement:
        token = self.take()
        if token == "!":
            key = self.take()
            if not _is_identifier(key):
                raise SelectorError(f"found '{key or 'end of string'}', expected: identifier after '!'")
            assert key is not None
            _check_key(key)
            return Requirement(key, "!exists")
        if not _is_identifier(token):
            raise SelectorError(f"found '{token or 'end of string'}', expected: !, identifier, or 'end of string'")
        assert token is not None
        key = token
        _check_key(key)
        nxt = self.peek()
        if nxt is None or nxt == ",":
            return Requirement(key, "exists")
        op = self.take()
        if op in ("=", "==", "!="):
            value = self.peek()
            if value is None or value == ",":
                value = ""
            elif _is_identifier(value):
                self.take()
            else:
                raise SelectorError(f"found '{value}', expected: identifier")
            _check_value(key, value)
            return Requirement(key, op, (value,))
        if op in (">", "<"):
            value = self.take()
            if value is None or not _is_identifier(value):
                raise SelectorError(f"found '{value or 'end of string'}', expected: identifier")
            if not re.fullmatch(r"-?[0-9]+", value):
                raise SelectorError(
                    f"unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: {value}"
                )
            return Requirement(key, "gt" if op == ">" else "lt", (value,))
        if op in ("in", "notin"):
            return Requirement(key, op, self.value_set(key))
        raise SelectorError(f"found '{op}', expected: in, notin, =, ==, !=, gt, lt")

    def value_set(self, key: str) -> tuple[str, ...]:
        if self.take() != "(":
            raise SelectorError("found no '(', expected: '(' after 'in'/'notin'")
        if self.peek() == ")":
            self.take()
            return ("",)
        values: list[str] = []
        while True:
            token = self.peek()
            if token in (",", ")"):
                values.append("")  # k8s treats "(a,,b)" and "(a,)" as containing the empty value
            elif _is_identifier(token):
                assert token is not None
                self.take()
                values.append(token)
            else:
                raise SelectorError(f"found '{token or 'end of string'}', expected: ',', ')' or identifier")
            _check_value(key, values[-1])
            token = self.take()
            if token == ")":
                return tuple(values)
            if token != ",":
                raise SelectorError(f"found '{token or 'end of string'}', expected: ',' or ')'")


def _check_key(key: str) -> None:
    problem = qualified_name_problem(key)
    if problem:
        raise SelectorError(f'unable to parse requirement: key: Invalid value: "{key}": {problem}')


def _check_value(key: str, value: str) -> None:
    problem = label_value_problem(value)
    if problem:
        raise SelectorError(f'unable to parse requirement: values[0][{key}]: Invalid value: "{value}": {problem}')


def parse_label_selector(text: str | None) -> LabelSelector:
    if text is None or not text.strip():
        return LabelSelector()
    return _Parser(text).parse()
