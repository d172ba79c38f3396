"""policy_run.evaluate: each resource decoded once for every policy that reads it, the servicer's answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gpuready.offline import echo, policy_run
from gpuready.offline.analyzer import PACK_VERSION, InProcessAnalyzer, analyze_endpoint, load_pack
from gpuready.offline.analyzer_requests import configure_request
from tests.offline.projects import run_project

ROOT = Path(__file__).resolve().parents[2]


def test_each_resource_is_decoded_once_and_the_answers_are_the_servicers(monkeypatch: pytest.MonkeyPatch) -> None:
    run = run_project(ROOT / "examples" / "wrong_program")
    name, policies = load_pack()
    full = InProcessAnalyzer(name, policies)
    configure = configure_request(full.info(), None)
    engine = analyze_endpoint(full, run, configure)
    decoded: list[int] = []
    real = echo.struct_dict  # MessageToDict's equal, which policy_run reads with

    def counting(message: Any) -> Any:
        decoded.append(id(message))
        return real(message)

    monkeypatch.setattr(policy_run, "struct_dict", counting)
    found = policy_run.evaluate(run, policies, pack_name=name, pack_version=PACK_VERSION, configure=configure)
    assert sorted(found, key=str) == sorted(engine, key=str)
    assert len(found) == 12  # the example's mistakes (its autoscaled count included), mandatory ones among them
    inputs = {id(r.object): r.urn for r in run.resources}
    read = sorted(r.urn for r in run.resources if any(policy_run.reads(p, r.type) for p in policies))
    assert sorted(inputs[i] for i in decoded if i in inputs) == read  # each read resource once, none twice
