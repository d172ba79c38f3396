"""The public bad-input corpus (bad_inputs.yaml): every case is refused with the expected path and message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core import pool_config
from gpuready.errors import ConfigError, SpecError

CORPUS = Path(__file__).with_name("bad_inputs.yaml")
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 45


def test_corpus_ids_are_unique() -> None:
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case_is_well_formed(case: dict[str, Any]) -> None:
    assert set(case) == {"id", "cloud", "pools", "expect"}
    assert case["cloud"] in ("eks", "aks", "gke")
    assert isinstance(case["pools"], list)
    path, message = case["expect"]
    assert isinstance(path, str)
    assert isinstance(message, str)
    assert message


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_bad_input_is_refused_with_a_pointed_problem(case: dict[str, Any]) -> None:
    path, message = case["expect"]
    with pytest.raises(SpecError) as info:
        pool_config.parse_pools(case["pools"], case["cloud"])
    assert isinstance(info.value, ConfigError)
    problems = info.value.problems
    assert any(path in p.path and message in str(p) for p in problems), "\n".join(map(str, problems))
