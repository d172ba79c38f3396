"""Kubernetes syntax rules for label keys, label values and taints. Pure.

Rules from the Kubernetes API (apimachinery ``validation.IsQualifiedName`` / ``IsValidLabelValue``):
a qualified name is an optional DNS-subdomain prefix (<= 253 chars) and ``/``, then a name of <= 63
chars of ``[A-Za-z0-9._-]`` that starts and ends alphanumeric; a label value is empty or such a name.
"""

from __future__ import annotations

import re
from typing import Literal

TaintEffect = Literal["NoSchedule", "PreferNoSchedule", "NoExecute"]
TAINT_EFFECTS: tuple[TaintEffect, ...] = ("NoSchedule", "PreferNoSchedule", "NoExecute")

_NAME = re.compile(r"^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)\Z")
_DNS_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\Z")


def qualified_name_problem(key: str) -> str | None:
    """Why ``key`` is not a valid label or taint key, or None when it is."""
    if not key:
        return "a key must not be empty"
    prefix, _, name = key.rpartition("/")
    if "/" in prefix:
        return "a key has at most one '/'"
    if key.startswith("/"):
        return "the prefix before '/' must not be empty"
    if prefix and (len(prefix) > 253 or not _DNS_SUBDOMAIN.match(prefix)):
        return "the prefix must be a lowercase DNS subdomain of at most 253 characters"
    if len(name) > 63:
        return "the name part must be at most 63 characters"
    if not _NAME.match(name):
        return "the name part must be alphanumeric, '-', '_' or '.', starting and ending alphanumeric"
    return None


def label_value_problem(value: str) -> str | None:
    """Why ``value`` is not a valid label (or taint) value, or None when it is."""
    if value == "":
        return None
    if len(value) > 63:
        return "a value must be at most 63 characters"
    if not _NAME.match(value):
        return "a value must be alphanumeric, '-', '_' or '.', starting and ending alphanumeric"
    return None


def object_name_problem(name: str) -> str | None:
    """Why ``name`` is not a valid name of a Kubernetes object (a DNS subdomain), or None when it is."""
    if len(name) > 253 or not _DNS_SUBDOMAIN.match(name):
        return "a Kubernetes object name must be a lowercase DNS subdomain ('a-z', '0-9', '-', '.') of at most 253"
    return None


def key_prefix(key: str) -> str:
    """The DNS prefix of a key (``nvidia.com`` for ``nvidia.com/gpu``), or '' when it has none."""
    prefix, _, _ = key.rpartition("/")
    return prefix


def prefix_is_under(key: str, domain: str) -> bool:
    """Whether the key's prefix is ``domain`` or a subdomain of it."""
    prefix = key_prefix(key)
    return prefix == domain or prefix.endswith("." + domain)
