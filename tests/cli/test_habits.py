"""kubectl habits without a cluster: ``--version``, ``completion bash|zsh`` (the scripts parse and complete), the
``-o`` choices the parser offers, and the heartbeat line."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import time
from contextlib import redirect_stdout
from importlib.metadata import version
from io import StringIO
from pathlib import Path

import pytest

from gpuready.cli.completion import script
from gpuready.cli.heartbeat import Heartbeat, waiting_line
from gpuready.cli.main import build_parser, main
from gpuready.kube.deadline import Deadline

BASH = shutil.which("bash")


def run(*argv: str) -> tuple[int, str]:
    out = StringIO()
    with redirect_stdout(out):
        try:
            code = main(list(argv))
        except SystemExit as exited:
            code = int(exited.code or 0)
    return code, out.getvalue()


def test_version_prints_the_installed_version_on_stdout() -> None:
    assert run("--version") == (0, f"gpuready {version('gpuready')}\n")


def _outputs(command: str) -> tuple[str, ...]:
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    sub = commands.choices[command]
    (output,) = [a for a in sub._actions if "--output" in a.option_strings]
    return tuple(output.choices or ())


@pytest.mark.parametrize(
    ("command", "choices"),
    [
        ("check", ("table", "json", "yaml", "wide")),
        ("verify", ("table", "json", "yaml", "wide")),
        ("plan", ("table", "json", "yaml", "wide")),
        ("diff", ("table", "json", "yaml", "wide")),
        ("label", ("table", "wide")),
    ],
)
def test_yaml_wherever_json_and_wide_and_no_headers_on_every_table(command: str, choices: tuple[str, ...]) -> None:
    assert set(choices) <= set(_outputs(command))
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert "--no-headers" in commands.choices[command]._option_string_actions


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_script_is_valid_bash(shell: str, tmp_path: Path) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    code, text = run("completion", shell)
    assert code == 0
    path = tmp_path / f"gpuready.{shell}"
    path.write_text(text)
    checked = subprocess.run([BASH, "-n", str(path)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (["gpuready", ""], {"plan", "check", "label", "verify", "diff", "support-matrix", "completion", "--version"}),
        (["gpuready", "check", "-o", ""], {"table", "json", "yaml", "wide"}),
        (["gpuready", "verify", "--no-h"], {"--no-headers"}),
        (["gpuready", "label", "-o", ""], {"table", "wide"}),
        (["gpuready", "completion", ""], {"bash", "zsh"}),
        (["gpuready", "label", "--"], {"--dry-run", "--yes", "--selector", "--kubeconfig", "--context", "--timeout"}),
    ],
)
def test_bash_completes_commands_flags_and_choices(words: list[str], expected: set[str], tmp_path: Path) -> None:
    if BASH is None:
        pytest.skip("bash is not installed")
    path = tmp_path / "gpuready.bash"
    path.write_text(script(build_parser(), "bash"))
    quoted = " ".join(f"'{w}'" for w in words)
    program = f'source {path}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _gpuready; echo "${{COMPREPLY[@]}}"'
    done = subprocess.run([BASH, "-c", program], capture_output=True, text=True, check=True)
    assert expected <= set(done.stdout.split())


def test_every_command_and_flag_of_the_parser_is_in_the_script() -> None:
    text = script(build_parser(), "bash")
    parser = build_parser()
    (commands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    for name, sub in commands.choices.items():
        assert f"    {name})" in text
        for action in sub._actions:
            for option in action.option_strings:
                assert option in text, (name, option)


@pytest.mark.parametrize(
    ("progress", "converged", "expected", "left", "line"),
    [
        ([("l4", 1, 2), ("spare", 0, 0)], 1, 2, 540.4,
         "gpuready: waiting: pool l4 1/2, pool spare 0/0 converged (1/2 nodes); 540s left"),
        ([], 0, 3, 9.6, "gpuready: waiting: 0/3 nodes converged; 10s left"),
    ],
)  # fmt: skip
def test_waiting_line(
    progress: list[tuple[str, int, int]], converged: int, expected: int, left: float, line: str
) -> None:
    assert waiting_line(progress, converged, expected, left) == line


def test_heartbeat_prints_at_a_bounded_rate_and_stops(capsys: pytest.CaptureFixture[str]) -> None:
    with Heartbeat(Deadline(30), interval=0.05) as heartbeat:
        heartbeat.update([("l4", 0, 2)], 0, 2)
        time.sleep(0.32)
    lines = capsys.readouterr().err.splitlines()
    time.sleep(0.1)
    assert 2 <= len(lines) <= 7  # one line per 0.05 s at most; a loaded machine may wake the thread late
    assert all(line.startswith("gpuready: waiting: pool l4 0/2 converged (0/2 nodes); ") for line in lines)
    assert capsys.readouterr().err == ""  # nothing after it stopped
