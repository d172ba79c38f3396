"""``make try`` (``python -m tools.try_cluster``): starts the stand-in, prints the kubeconfig and the commands,
``gpuready check`` runs against it and sees the seeded states, Ctrl-C stops it cleanly and removes the kubeconfig."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

from gpuready.cli.main import main
from tools.try_cluster import commands, seed_nodes

ROOT = Path(__file__).resolve().parents[2]


def _check_json(kubeconfig: str) -> dict[str, object]:
    out = StringIO()
    with redirect_stdout(out):
        code = main(["check", "--kubeconfig", kubeconfig, "-o", "json"])
    assert code == 0
    data: dict[str, object] = json.loads(out.getvalue())
    return data


def test_start_check_and_stop() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tools.try_cluster"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines: list[str] = []
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Ctrl-C stops it."):
                break
        kubeconfig = next(line.removeprefix("kubeconfig: ") for line in lines if line.startswith("kubeconfig: "))
        assert Path(kubeconfig).is_file()
        assert any(f"check --kubeconfig {kubeconfig}" in line for line in lines)
        data = _check_json(kubeconfig)
        codes = {finding["code"] for finding in data["findings"]}  # type: ignore[attr-defined]
        assert {"gpu-taint-missing", "accelerator-label-wrong", "node-not-ready", "node-cordoned",
                "sharing-not-applied", "accelerator-label-missing"} <= codes  # fmt: skip
        statuses = {n["name"]: n["status"] for n in data["nodes"]}  # type: ignore[attr-defined]
        assert statuses["l4-ok"] == statuses["l4-shared-applied"] == "ok"
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert process.returncode == 0, err
        assert out.strip().endswith("stopped")
        assert "Traceback" not in err
        assert not Path(kubeconfig).exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_every_seeded_gpu_node_names_its_state_and_the_commands_use_the_kubeconfig() -> None:
    names = [node["metadata"]["name"] for node in seed_nodes()]
    assert len(names) == len(set(names))
    assert all("--kubeconfig /k/config" in line for line in commands(Path("/k/config"))[:5])
