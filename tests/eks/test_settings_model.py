"""The EKS stack keys in their documented formats (``gpuready.eks.settings_model``): what passes, what is refused
with its path and a hint, and the IAM rules checked against botocore's data."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import botocore  # type: ignore[import-untyped]  # no stubs installed
import pytest

from gpuready.eks.settings_model import AWS_PARTITIONS
from tests.wiring import accepted, assert_refused_with_hint

BOTOCORE_DATA = Path(botocore.__file__).parent / "data"

ACCEPTED: list[tuple[str, Any]] = [
    ("eksNodeRoleArn", "arn:aws:iam::123456789012:role/ml-prod-gpu-nodes"),
    ("eksNodeRoleArn", "arn:aws-cn:iam::123456789012:role/eks/nodes/gpu+ml=1,a.b@c-d"),
    ("eksNodeRoleArn", "arn:aws-us-gov:iam::123456789012:role/service-role/gpu"),
    ("eksSubnetIds", ["subnet-0a1b2c3d", "subnet-0a1b2c3d4e5f60718"]),
]

REFUSED: list[tuple[str, Any, str]] = [
    ("eksNodeRoleArn", "ml-prod-gpu-nodes", "gpuready:eksNodeRoleArn"),
    ("eksNodeRoleArn", "arn:aws:iam::123456789012:role/", "gpuready:eksNodeRoleArn"),
    ("eksNodeRoleArn", "arn:aws:iam::123456789012:instance-profile/gpu", "gpuready:eksNodeRoleArn"),
    ("eksNodeRoleArn", "arn:aws:iam:us-east-1:123456789012:role/gpu", "gpuready:eksNodeRoleArn"),
    ("eksNodeRoleArn", "arn:aws:iam::123456789012:role/" + "n" * 65, "gpuready:eksNodeRoleArn"),
    ("eksNodeRoleArn", "arn:aws:iam::123456789012:role/gpu-n\u00f6des", "gpuready:eksNodeRoleArn"),  # ASCII \w only
    ("eksNodeRoleArn", "arn:aws:iam::\u0661\u0662\u0663456789012:role/gpu", "gpuready:eksNodeRoleArn"),  # ASCII digits
    ("eksSubnetIds", ["subnet-0a1b2c3d", "subnet-0A1B2C3D"], "gpuready:eksSubnetIds[1]"),
]


@pytest.mark.parametrize(("key", "value"), ACCEPTED)
def test_documented_formats_pass(key: str, value: Any) -> None:
    assert accepted(key, value) == value


@pytest.mark.parametrize(("key", "value", "path"), REFUSED)
def test_other_values_are_refused_at_their_path_with_a_hint(key: str, value: Any, path: str) -> None:
    assert_refused_with_hint(key, value, path)


def _botocore(name: str) -> dict[str, Any]:
    (path,) = (BOTOCORE_DATA / name).glob("*/service-2.json*")
    raw = path.read_bytes()
    data: dict[str, Any] = json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)
    return data


def test_partitions_are_botocores() -> None:
    data = json.loads((BOTOCORE_DATA / "partitions.json").read_text(encoding="utf-8"))
    assert set(AWS_PARTITIONS) == {p["id"] for p in data["partitions"]}


def test_role_name_account_and_path_rules_are_the_iam_models() -> None:
    shapes = _botocore("iam")["shapes"]
    assert shapes["roleNameType"] == {"type": "string", "max": 64, "min": 1, "pattern": "[\\w+=,.@-]+"}
    assert shapes["accountIdType"]["pattern"] == "\\d{12}"
    assert shapes["pathType"]["pattern"] == "(\\u002F)|(\\u002F[\\u0021-\\u007E]+\\u002F)"
