"""``provisioner: compute-class`` capacity (issue #28): reservations and flex-start as ComputeClass priorities, every
class validated strictly against the upstream schema with its CEL rules (``tests/crd_schemas.schema_problems``)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.specs import Reservation
from gpuready.errors import SpecError
from gpuready.gke import compute_class
from tests.core.conftest import build_spec
from tests.crd_schemas import schema_problems

SCHEMA = "crds-catalog/cloud.google.com/computeclass_v1.json"
CLASS = {"provisioner": "compute-class", "instance_type": "a3-highgpu-8g"}

CASES = [
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="any")},
                 {"reservations": {"affinity": "AnyBestEffort"}}, id="reserved-any"),
    pytest.param({"capacity": "reserved", "zones": ("us-central1-a",),
                  "reservation": Reservation(affinity="specific", name="h100", project="shared-proj")},
                 {"reservations": {"affinity": "Specific", "specific": [
                     {"name": "h100", "project": "shared-proj", "zones": ["us-central1-a"]}]}}, id="reserved-specific"),
    pytest.param({"reservation": Reservation(affinity="none")}, {"reservations": {"affinity": "None"}},
                 id="on-demand-no-reservation"),
    pytest.param({"capacity": "flex-start", "max_run_duration": 7200},
                 {"flexStart": {"enabled": True}, "maxRunDurationSeconds": 7200, "spot": False}, id="flex-start"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "expected"), CASES)
def test_a_capacity_becomes_the_priorities_fields_and_passes_the_schema(
    fields: dict[str, Any], expected: dict[str, Any]
) -> None:
    obj = compute_class.compute_class(build_spec("gke", **CLASS, **fields))
    for priority in obj["spec"]["priorities"]:
        assert priority.items() >= expected.items()
    assert schema_problems(SCHEMA, obj) == []


def test_the_schema_cel_rule_on_specific_reservations_is_evaluated() -> None:
    """Negative control: named reservations under ``AnyBestEffort`` break the schema's CEL rule."""
    spec = build_spec("gke", **CLASS, capacity="reserved", reservation=Reservation(affinity="specific", name="h100"))
    obj = compute_class.compute_class(spec)
    obj["spec"]["priorities"][0]["reservations"]["affinity"] = "AnyBestEffort"
    problems = schema_problems(SCHEMA, obj)
    assert any("specific reservations for non specific affinity" in p for p in problems), problems


def test_flex_start_and_spot_together_break_the_schema() -> None:
    obj = compute_class.compute_class(build_spec("gke", **CLASS, capacity="flex-start"))
    obj["spec"]["priorities"][0]["spot"] = True
    assert any("incompatible with Spot" in p for p in schema_problems(SCHEMA, obj))


REFUSED = [
    pytest.param({"capacity": "queued"}, "capacity", "not offered by the GKE compute-class", "provisioner: node-pool",
                 id="queued"),
    pytest.param({"location_policy": "ANY"}, "locationPolicy", "not read by the GKE compute-class",
                 "provisioner: node-pool", id="location-policy"),
    pytest.param({"capacity": "reserved"}, "reservation.affinity", "names how it consumes", "affinity: any",
                 id="reserved-without"),
    pytest.param({"capacity": "spot", "reservation": Reservation(affinity="any")}, "reservation.affinity",
                 "consumes no reservation", "remove reservation", id="spot-reserved"),
    pytest.param({"reservation": Reservation(group_id="/subscriptions/x")}, "reservation.groupId",
                 "not read by the GKE compute-class", "no GKE provisioner reads it", id="aks-field"),
    pytest.param({"capacity": "flex-start", "max_run_duration": 10}, "maxRunDuration", "between 30", "",
                 id="run-too-short"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "path", "words", "hint"), REFUSED)
def test_what_a_class_cannot_express_is_refused(fields: dict[str, Any], path: str, words: str, hint: str) -> None:
    with pytest.raises(SpecError) as caught:
        build_spec("gke", **CLASS, **fields)
    matching = [p for p in caught.value.problems if p.path == path and words in str(p)]
    assert matching, caught.value.problems
    assert hint in matching[0].hint
