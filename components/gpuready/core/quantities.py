"""Kubernetes resource quantities (``500m``, ``1Gi``, ``2e3``), read exactly. Pure: the one parser of the package.

Grammar and suffixes from apimachinery ``pkg/api/resource/quantity.go`` (the ``<quantity> ::= <signedNumber>
<suffix>`` comment) and ``suffix.go``: an optional sign, digits with an optional decimal point, then a binary SI
suffix (``Ki`` .. ``Ei``), a decimal SI suffix (``n``, ``u``, ``m``, none, ``k``, ``M``, ``G``, ``T``, ``P``,
``E``) or a decimal exponent (``e3``, ``E-2``). lightkube's ``parse_quantity`` reads the same grammar, but the
pure core imports no Kubernetes client (import-linter), so this module is the package's own reading.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

QUANTITY = re.compile(r"^(?P<number>[+-]?(\d+\.?\d*|\.\d+))(?P<suffix>[KMGTPE]i|[numkMGTPE]|[eE][+-]?\d+)?\Z")
"""A quantity as apimachinery accepts it (no surrounding spaces)."""

SUFFIXES: Mapping[str, Fraction] = {
    "n": Fraction(1, 10**9),
    "u": Fraction(1, 10**6),
    "m": Fraction(1, 1000),
    "": Fraction(1),
    "k": Fraction(10**3),
    "M": Fraction(10**6),
    "G": Fraction(10**9),
    "T": Fraction(10**12),
    "P": Fraction(10**15),
    "E": Fraction(10**18),
    "Ki": Fraction(2**10),
    "Mi": Fraction(2**20),
    "Gi": Fraction(2**30),
    "Ti": Fraction(2**40),
    "Pi": Fraction(2**50),
    "Ei": Fraction(2**60),
}
"""Suffix -> its multiplier (apimachinery ``suffix.go``)."""


def parse_quantity(text: str) -> Fraction | None:
    """The exact value of a quantity string, or None when it is not a Kubernetes quantity."""
    match = QUANTITY.match(text)
    if match is None:
        return None
    suffix = match["suffix"] or ""
    scale = SUFFIXES.get(suffix)  # ``E`` and ``Ei`` are suffixes; ``E3`` is an exponent
    if scale is None:
        scale = Fraction(10) ** int(suffix[1:])
    return Fraction(match["number"]) * scale


def whole_count(quantity: object) -> int | None:
    """A quantity (``8``, ``2k``, ``1Ki``; surrounding spaces ignored) whose value is a whole number of at least 0,
    as an int; None for anything fractional, negative or malformed."""
    text = str(quantity).strip()
    if text.isdigit():  # the common case: extended resources are plain integers
        return int(text)
    value = parse_quantity(text)
    if value is None or value < 0 or value.denominator != 1:
        return None
    return int(value)
