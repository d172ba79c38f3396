"""Smoke test of the real pack process: started like the engine starts it, driven over gRPC."""

from __future__ import annotations

from pathlib import Path

from gpuready.offline.analyzer import PACK_DIR, analyze_endpoint, analyze_pack, pack_process
from gpuready.offline.analyzer_requests import configure_request
from tests.offline.projects import run_project
from tests.policy.harness import POLICY_NAMES

WRONG_PROGRAM = Path(__file__).resolve().parents[2] / "examples" / "wrong_program"


def test_the_pack_process_answers_like_the_in_process_servicer() -> None:
    run = run_project(WRONG_PROGRAM)
    with pack_process(PACK_DIR) as endpoint:
        info = endpoint.info()
        assert info.name == "gpuready-gpu-conventions"
        assert {p.name for p in info.policies} == POLICY_NAMES
        over_grpc = analyze_endpoint(endpoint, run, configure_request(info, None))
    assert over_grpc == analyze_pack(run)
    assert any(v.level == "mandatory" for v in over_grpc)
