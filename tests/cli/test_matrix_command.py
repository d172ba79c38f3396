"""``gpuready support-matrix``: the README's matrix is the code's, and --write / --check behave."""

from __future__ import annotations

from pathlib import Path

import pytest

from components.cli.main import main
from components.core.gpu_stack import support_matrix

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_matrix_is_the_one_the_rules_compute() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert support_matrix.render_markdown() in readme, "run: gpuready support-matrix --write README.md"
    assert main(["support-matrix", "--check", str(ROOT / "README.md")]) == 0


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


# Rows written from the facts (nvidia.md section 7), not from the code: (cloud, image, driver, kind) -> works.
EXPECTED_WORKS = {
    ("eks", "al2023", "cloud", "gpu-operator"): True,
    ("eks", "al2023", "cloud", "device-plugin"): True,
    ("eks", "al2023", "cloud", "none"): False,
    ("eks", "bottlerocket", "cloud", "device-plugin"): False,
    ("eks", "bottlerocket", "cloud", "none"): True,
    ("aks", "ubuntu", "operator", "device-plugin"): False,
    ("aks", "ubuntu", "operator", "gpu-operator"): True,
    ("gke", "cos", "cloud", "none"): True,
    ("gke", "cos", "cloud", "gpu-operator"): False,
    ("gke", "ubuntu", "operator", "gpu-operator"): True,
}


def test_matrix_rows_match_the_documented_platform_facts() -> None:
    rows: dict[tuple[str, str, str, str], support_matrix.MatrixRow] = {
        (r.cloud, r.image, r.driver, r.kind): r for r in support_matrix.matrix()
    }
    for key, works in EXPECTED_WORKS.items():
        assert rows[key].works is works, (key, rows[key].how)
    assert ("eks", "al2023", "operator") not in {(c, i, d) for c, i, d, _ in rows}  # no operator driver on EKS
    assert ("gke", "cos", "operator") not in {(c, i, d) for c, i, d, _ in rows}  # operator driver needs Ubuntu
    mig = support_matrix.SHARING_COLUMNS.index("mig")
    assert rows[("eks", "al2023", "cloud", "device-plugin")].sharing[mig].startswith("no")
    assert rows[("eks", "al2023", "cloud", "gpu-operator")].sharing[mig] == "MIG manager"
    assert rows[("aks", "ubuntu", "cloud", "device-plugin")].sharing[mig] == "cloud"
    assert rows[("gke", "cos", "cloud", "none")].sharing == ("cloud", "cloud", "cloud")
