"""The plan document's JSON Schema (``docs/plan.schema.json``) describes what ``gpuready plan -o json`` prints: every
golden plan of the example stacks and programs validates against it, strictly, and the schema's version is the
one the code writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gpuready.core.fabric.model import FABRIC_KINDS
from gpuready.core.plan_format import PLAN_FORMAT

ROOT = Path(__file__).resolve().parents[2]
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "plan.schema.json").read_text("utf-8"))
GOLDEN_PLANS = sorted((ROOT / "tests" / "golden" / "data").glob("plan-*.json"))


def test_the_schema_is_a_valid_draft_2020_12_schema_of_this_format() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["formatVersion"] == {**SCHEMA["properties"]["formatVersion"], "const": PLAN_FORMAT}


@pytest.mark.parametrize("path", GOLDEN_PLANS, ids=lambda p: p.stem)
def test_every_golden_plan_validates(path: Path) -> None:
    plan = json.loads(path.read_text("utf-8"))["stdout"]
    jsonschema.Draft202012Validator(SCHEMA).validate(plan)


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda p: p.pop("formatVersion"), "formatVersion"),
        (lambda p: p.update(extra=1), "extra"),
        (lambda p: p["resources"][0].pop("urn"), "urn"),
        (lambda p: p["pools"][0].update(maxNodes=-1), "maxNodes"),
        (lambda p: p["pools"][0]["schedulableAtMaxSize"].update({"nvidia.com/gpu": "8"}), "nvidia.com/gpu"),
        (lambda p: p["violations"].append({"policy": "x", "level": "fatal", "resource": "", "message": ""}), "fatal"),
    ],
    ids=["no-version", "unknown-key", "resource-without-urn", "negative-nodes", "units-as-text", "unknown-level"],
)
def test_the_schema_refuses_what_the_plan_never_writes(mutate: Any, where: str) -> None:
    plan = json.loads((ROOT / "tests" / "golden" / "data" / "plan-eks-dev.json").read_text("utf-8"))["stdout"]
    mutate(plan)
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.Draft202012Validator(SCHEMA).validate(plan)
    assert where in str(caught.value)


def test_the_schema_names_every_fabric_kind() -> None:
    fabric = SCHEMA["$defs"]["pool"]["properties"]["fabric"]["oneOf"][1]
    assert tuple(fabric["properties"]["kind"]["enum"]) == FABRIC_KINDS
