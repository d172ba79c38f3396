"""``gpuready support-matrix``: docs/gpu-stack.md's matrix is the code's, and --write / --check behave."""

from __future__ import annotations

import errno
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gpuready.cli.main import main
from gpuready.core.capacity.registry import provisioners
from gpuready.core.gpu_stack import support_matrix

ROOT = Path(__file__).resolve().parents[2]


GPU_STACK_DOC = ROOT / "docs" / "gpu-stack.md"


def test_the_documented_matrix_is_the_one_the_rules_compute() -> None:
    doc = GPU_STACK_DOC.read_text(encoding="utf-8")
    assert support_matrix.render_markdown() in doc, "run: gpuready support-matrix --write docs/gpu-stack.md"
    assert main(["support-matrix", "--check", str(GPU_STACK_DOC)]) == 0


def test_print_write_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["support-matrix"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(support_matrix.START)
    doc = tmp_path / "doc.md"
    doc.write_text(f"intro\n{support_matrix.START}\nold rows\n{support_matrix.END}\noutro\n", encoding="utf-8")
    assert main(["support-matrix", "--check", str(doc)]) == 1
    assert "stale" in capsys.readouterr().err
    assert main(["support-matrix", "--write", str(doc)]) == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("\noutro\n") and "old rows" not in text
    assert main(["support-matrix", "--check", str(doc)]) == 0


def test_a_file_without_the_block_is_invalid_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("no block here\n", encoding="utf-8")
    assert main(["support-matrix", "--write", str(doc)]) == 2
    assert "no support-matrix block" in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == "no block here\n"


# Rows written from the facts (nvidia.md section 7; for elastic pools the sources in
# tests/core/gpu_stack/test_elastic_ownership.py), not from the code:
# (cloud, provisioner, image, driver, kind) -> works.
EXPECTED_WORKS = {
    ("eks", "node-group", "al2023", "cloud", "gpu-operator"): True,
    ("eks", "node-group", "al2023", "cloud", "device-plugin"): True,
    ("eks", "node-group", "al2023", "cloud", "none"): False,
    ("eks", "node-group", "bottlerocket", "cloud", "device-plugin"): False,
    ("eks", "node-group", "bottlerocket", "cloud", "none"): True,
    ("aks", "node-pool", "ubuntu", "operator", "device-plugin"): False,
    ("aks", "node-pool", "ubuntu", "operator", "gpu-operator"): True,
    ("gke", "node-pool", "cos", "cloud", "none"): True,
    ("gke", "node-pool", "cos", "cloud", "gpu-operator"): False,
    ("gke", "node-pool", "ubuntu", "operator", "gpu-operator"): True,
    ("eks", "karpenter", "al2023", "cloud", "device-plugin"): True,
    ("eks", "karpenter", "bottlerocket", "cloud", "device-plugin"): False,
    ("eks", "eks-auto-mode", "-", "cloud", "device-plugin"): False,  # Auto Mode runs its own plugin
    ("eks", "eks-auto-mode", "-", "cloud", "none"): True,
    ("eks", "eks-auto-mode", "-", "cloud", "gpu-operator"): True,  # with its driver and plugin operands off
    ("aks", "nap", "ubuntu", "cloud", "device-plugin"): True,  # gpu.mode Driver: AKS's driver, no plugin
    ("aks", "nap", "ubuntu", "cloud", "none"): False,
    ("aks", "nap", "ubuntu", "operator", "gpu-operator"): True,  # gpu.mode None
    ("gke", "compute-class", "cos", "cloud", "none"): True,
    ("gke", "compute-class", "ubuntu", "cloud", "gpu-operator"): False,
}


def test_matrix_rows_match_the_documented_platform_facts() -> None:
    rows: dict[tuple[str, str, str, str, str], support_matrix.MatrixRow] = {
        (r.cloud, r.provisioner, r.image, r.driver, r.kind): r for r in support_matrix.matrix()
    }
    for key, works in EXPECTED_WORKS.items():
        assert rows[key].works is works, (key, rows[key].how)
    platforms = {(c, p, i, d) for c, p, i, d, _ in rows}
    assert not {(c, i, d) for c, _, i, d in platforms} & {("eks", "al2023", "operator"), ("gke", "cos", "operator")}
    assert not {(c, p, d) for c, p, _, d in platforms} & {("eks", "eks-auto-mode", "operator"),
                                                          ("gke", "compute-class", "operator")}  # fmt: skip
    assert {p.key for p in provisioners()} == {p for _, p, _, _ in platforms}
    mig = support_matrix.SHARING_COLUMNS.index("mig")
    assert rows[("eks", "node-group", "al2023", "cloud", "device-plugin")].sharing[mig].startswith("no")
    assert rows[("eks", "node-group", "al2023", "cloud", "gpu-operator")].sharing[mig] == "MIG manager"
    assert rows[("aks", "node-pool", "ubuntu", "cloud", "device-plugin")].sharing[mig] == "cloud"
    assert rows[("gke", "node-pool", "cos", "cloud", "none")].sharing == ("cloud", "cloud", "cloud")
    # NAP cannot have AKS partition MIG (no gpuInstanceProfile on an AKSNodeClass): the MIG manager must.
    assert rows[("aks", "nap", "ubuntu", "cloud", "gpu-operator")].sharing[mig] == "no (pool rules)"
    assert rows[("aks", "nap", "ubuntu", "operator", "gpu-operator")].sharing[mig] == "MIG manager"
    assert rows[("gke", "compute-class", "cos", "cloud", "none")].sharing == ("cloud", "cloud", "cloud")
    assert rows[("eks", "eks-auto-mode", "-", "cloud", "none")].sharing == ("no (pool rules)",) * 3


def stale_readme(tmp_path: Path) -> tuple[Path, str]:
    """A copy of docs/gpu-stack.md (tens of kB) whose matrix block is stale."""
    text = GPU_STACK_DOC.read_text(encoding="utf-8").replace(support_matrix.render_markdown(), "")
    stale = text.replace(support_matrix.START, f"{support_matrix.START}\nold rows\n" + support_matrix.END, 1)
    doc = tmp_path / "gpu-stack.md"
    doc.write_text(stale if stale != text else f"{text}\n{support_matrix.START}\nold\n{support_matrix.END}\n")
    return doc, doc.read_text(encoding="utf-8")


def test_a_full_disk_leaves_the_target_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    doc, before = stale_readme(tmp_path)
    real_write = os.write

    def full_after_4096(fd: int, data: bytes | memoryview) -> int:
        if fd > 2 and os.fstat(fd).st_size >= 4096:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, bytes(data)[: 4096 - os.fstat(fd).st_size] if fd > 2 else data)

    monkeypatch.setattr(os, "write", full_after_4096)
    assert main(["support-matrix", "--write", str(doc)]) == 2
    monkeypatch.undo()
    assert doc.read_text(encoding="utf-8") == before  # was cut off at 4,096 bytes, its other lines gone
    assert [p.name for p in tmp_path.iterdir()] == ["gpu-stack.md"]  # no temporary file left behind
    assert "No space left on device" in capsys.readouterr().err


def test_a_file_size_limit_in_a_real_process_leaves_the_target_whole(tmp_path: Path) -> None:
    doc, before = stale_readme(tmp_path)
    assert len(before.encode()) > 4096

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = subprocess.run(
        [str(Path(sys.executable).with_name("gpuready")), "support-matrix", "--write", str(doc)],
        preexec_fn=limit, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "the file is unchanged" in done.stderr
    assert doc.read_text(encoding="utf-8") == before
