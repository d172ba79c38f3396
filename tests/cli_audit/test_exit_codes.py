"""The console entry: a reader that goes away (``| head``) or Ctrl-C ends the command quietly, no traceback."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest

from gpuready.cli import main as cli_main
from gpuready.cli.exit_codes import EXIT_BROKEN_PIPE

ROOT = Path(__file__).resolve().parents[2]
GPUREADY = Path(sys.executable).with_name("gpuready")


class ClosedPipe(io.StringIO):
    """stdout whose reader has gone: every write fails as it does after ``| head`` exits."""

    def write(self, _text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


class Exited(Exception):
    def __init__(self, code: int) -> None:
        self.code = code


def fake_exit(code: int) -> NoReturn:
    raise Exited(code)


def test_a_closed_stdout_ends_with_141_and_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["gpuready", "support-matrix"])
    monkeypatch.setattr(sys, "stdout", ClosedPipe())
    monkeypatch.setattr(os, "_exit", fake_exit)
    with pytest.raises(Exited) as exited:
        cli_main.entry()
    assert exited.value.code == EXIT_BROKEN_PIPE == 141
    assert "Traceback" not in capsys.readouterr().err


def test_ctrl_c_ends_with_130_and_one_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(**_: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "main", interrupted)
    monkeypatch.setattr(os, "_exit", fake_exit)
    with pytest.raises(Exited) as exited:
        cli_main.entry()
    assert exited.value.code == 130
    assert capsys.readouterr().err == "interrupted by SIGINT\n"


@pytest.mark.parametrize(
    ("redirect", "reason"),
    [("> /dev/full", "No space left on device (ENOSPC)"), (">&-", "Bad file descriptor (EBADF)")],
    ids=["dev-full", "closed-at-start"],
)
def test_an_stdout_that_cannot_be_written_gives_one_line_and_exit_2(redirect: str, reason: str) -> None:
    done = subprocess.run(
        f"{GPUREADY} support-matrix {redirect}", shell=True, cwd=ROOT, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr  # was 1, the "violations" code, with a traceback
    assert done.stderr == f"error: cannot write the output: {reason}\n"


def test_plan_json_piped_into_head_ends_quietly() -> None:
    """The real console script, its JSON (about 100 kB for 60 pools) read by a reader that stops after 100 bytes."""
    pools = "".join(f"- {{name: p{i}, instanceType: g6.xlarge, minSize: 0, maxSize: 1}}\n" for i in range(60))
    command = [
        str(GPUREADY),
        "plan",
        "--stack",
        "eks-dev",
        "--no-policy",
        "-o",
        "json",
        "--set",
        f"gpuready:nodePools={pools}",
    ]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        head = process.stdout.read(100)
        process.stdout.close()  # what `head -c 100` does
        err = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert head.startswith(b'{"formatVersion": 1, "stack": "eks-dev"')
    assert code == 141, err
    assert "Traceback" not in err and "BrokenPipeError" not in err


@pytest.mark.parametrize("command", ["check", "label", "verify"])
@pytest.mark.parametrize("value", ["0", "-5", "inf"])
def test_a_deadline_that_is_no_deadline_is_refused(
    capsys: pytest.CaptureFixture[str], command: str, value: str
) -> None:
    """0 would be a deadline already passed: nothing would be listed (exit 2, before any request)."""
    target = (
        ["--selector", "x=y", "--kubeconfig", "/nonexistent"]
        if command == "verify"
        else ["--kubeconfig", "/nonexistent"]
    )
    assert cli_main.main([command, *target, "--timeout", value]) == 2
    assert "error: --timeout: must be more than 0 seconds" in capsys.readouterr().err
