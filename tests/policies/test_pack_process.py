"""Smoke test of the real pack process: started like the engine starts it, driven over gRPC."""

from __future__ import annotations

from pathlib import Path

from components.offline.analyzer import PACK_DIR, analyze_endpoint, analyze_pack, pack_process
from components.offline.analyzer_requests import configure_request
from components.offline.project import load_project
from components.offline.runner import run_program
from components.offline.stack_config import load_stack_config
from tests.policies.harness import POLICY_NAMES

WRONG_PROGRAM = Path(__file__).resolve().parents[2] / "examples" / "wrong_program"


def test_the_pack_process_answers_like_the_in_process_servicer() -> None:
    project = load_project(WRONG_PROGRAM)
    config = load_stack_config(project, "dev")
    run = run_program(
        project.program_dir, project=project.name, stack="dev", config=config.values, secret_keys=config.secret_keys
    )
    with pack_process(PACK_DIR) as endpoint:
        info = endpoint.info()
        assert info.name == "gpuready-gpu-conventions"
        assert {p.name for p in info.policies} == POLICY_NAMES
        over_grpc = analyze_endpoint(endpoint, run, configure_request(info, None))
    assert over_grpc == analyze_pack(run)
    assert any(v["level"] == "mandatory" for v in over_grpc)
