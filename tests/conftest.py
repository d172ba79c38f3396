"""Fixtures shared by test modules of several packages, each built once per test session (per worker under
pytest-xdist: ``make test`` runs the suite on every core)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import policy_pack


@pytest.fixture(scope="session")
def policy_pack_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The policy pack's wheel as ``make policy-pack`` builds it (``tools/policy_pack.py``), built once."""
    return policy_pack.build(tmp_path_factory.mktemp("policy-pack-wheel"))
