"""The workload helper's public bad-input corpus (bad_workloads.yaml): every request is refused, pointedly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.core import pool_config
from gpuready.core.advertisers.device_selectors import DeviceSelector
from gpuready.core.kueue.spec import LocalQueueSpec
from gpuready.core.workload import gpu_workload
from gpuready.errors import SpecError

CORPUS = Path(__file__).with_name("bad_workloads.yaml")
CASES: list[dict[str, Any]] = yaml.safe_load(CORPUS.read_text(encoding="utf-8"))["cases"]


def test_corpus_ids_are_unique_and_cases_well_formed() -> None:
    assert len({case["id"] for case in CASES}) == len(CASES) >= 10
    for case in CASES:
        assert set(case) == {"id", "cloud", "pool", "workload", "expect"}
        assert set(case["workload"]) <= {"gpus", "resource", "migProfile", "selectors", "queue", "localQueues"}


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_bad_request_is_refused_with_a_pointed_problem(case: dict[str, Any]) -> None:
    (pool,) = pool_config.parse_pools([case["pool"]], case["cloud"])
    args = case["workload"]
    selectors = [DeviceSelector(*s) for s in args.get("selectors", [])]
    path, message = case["expect"]
    with pytest.raises(SpecError) as info:
        gpu_workload(
            pool, args.get("gpus", 1), resource=args.get("resource"), mig_profile=args.get("migProfile"),
            selectors=selectors, queue=args.get("queue"),
            local_queues=[LocalQueueSpec(**q) for q in args.get("localQueues", [])],
        )  # fmt: skip
    problems = info.value.problems
    assert any(path in p.path and message in str(p) for p in problems), "\n".join(map(str, problems))
