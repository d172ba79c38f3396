"""Kubernetes quantities read exactly, as apimachinery does (``quantity.go`` / ``suffix.go``), and whole counts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gpuready.core.quantities import SUFFIXES, parse_quantity, whole_count

QUANTITIES = [
    ("1", Fraction(1)),
    ("0", Fraction(0)),
    ("+2", Fraction(2)),
    ("-1", Fraction(-1)),
    ("0.5", Fraction(1, 2)),
    (".5", Fraction(1, 2)),
    ("5.", Fraction(5)),
    ("500m", Fraction(1, 2)),
    ("2000m", Fraction(2)),
    ("100u", Fraction(1, 10**4)),
    ("250n", Fraction(1, 4 * 10**6)),
    ("1k", Fraction(1000)),
    ("1M", Fraction(10**6)),
    ("3G", Fraction(3 * 10**9)),
    ("1T", Fraction(10**12)),
    ("1P", Fraction(10**15)),
    ("1E", Fraction(10**18)),
    ("1Ki", Fraction(1024)),
    ("256Mi", Fraction(256 * 2**20)),
    ("1.5Gi", Fraction(3 * 2**29)),
    ("1Ti", Fraction(2**40)),
    ("1Pi", Fraction(2**50)),
    ("1Ei", Fraction(2**60)),
    ("1e3", Fraction(1000)),
    ("1E3", Fraction(1000)),
    ("5e-1", Fraction(1, 2)),
    ("", None),
    ("one", None),
    ("1K", None),
    ("1KiB", None),
    ("1 Gi", None),
    (" 1", None),
    ("1.2.3", None),
    ("--1", None),
    ("1e", None),
]


@pytest.mark.parametrize(("text", "value"), QUANTITIES, ids=[repr(t) for t, _ in QUANTITIES])
def test_quantities(text: str, value: Fraction | None) -> None:
    assert parse_quantity(text) == value


def test_every_suffix_is_in_the_table() -> None:
    assert sorted(SUFFIXES) == sorted(
        ["n", "u", "m", "", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
    )
    covered = {t.lstrip("0123456789.+-") for t, v in QUANTITIES if v is not None}
    assert set(SUFFIXES) <= covered | {""}


COUNTS = [
    ("8", 8), ("0", 0), ("2k", 2000), ("1Ki", 1024), ("2000m", 2), (" 4 ", 4), (8, 8),
    ("1500m", None), ("", None), ("-1", None), ("x", None), ("0.5", None),
]  # fmt: skip


@pytest.mark.parametrize(("quantity", "count"), COUNTS, ids=[repr(q) for q, _ in COUNTS])
def test_whole_counts(quantity: object, count: int | None) -> None:
    assert whole_count(quantity) == count
