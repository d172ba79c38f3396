"""The GKE stack keys in their documented formats (``gpuready.gke.settings_model``): what passes, and what is
refused with its path and a hint."""

from __future__ import annotations

from typing import Any

import pytest

from tests.wiring import accepted, refusal

ACCEPTED: list[tuple[str, Any]] = [
    ("gkeLocation", "us-central1"),
    ("gkeLocation", "europe-west4-b"),
    ("gkeNodeLocations", ["us-central1-a", "us-central1-b"]),
    ("gkeServiceAccount", "gpu-nodes@ml-prod-123.iam.gserviceaccount.com"),
    ("gkeServiceAccount", "123456789012-compute@developer.gserviceaccount.com"),
    ("gkeServiceAccount", "default"),
]

REFUSED: list[tuple[str, Any, str]] = [
    ("gkeLocation", "us-central1-ab", "gpuready:gkeLocation"),
    ("gkeServiceAccount", "gpu@ml.iam.gserviceaccount.com", "gpuready:gkeServiceAccount"),
    ("gkeNodeLocations", "us-central1-a", "gpuready:gkeNodeLocations"),
]


@pytest.mark.parametrize(("key", "value"), ACCEPTED)
def test_documented_formats_pass(key: str, value: Any) -> None:
    assert accepted(key, value) == value


@pytest.mark.parametrize(("key", "value", "path"), REFUSED)
def test_other_values_are_refused_at_their_path_with_a_hint(key: str, value: Any, path: str) -> None:
    problem = refusal(key, value)
    assert problem.path == path
    assert problem.problem.startswith("must be")
    assert problem.hint or problem.problem == "must be a list"
