"""The policy pack's wheel (tools/policy_pack.py): the pack's modules and the pure core they import, nothing else."""

from __future__ import annotations

import ast
import zipfile
from pathlib import Path

import pytest

from tests.ast_source import parse
from tools import policy_pack

ROOT = Path(__file__).resolve().parents[2]

SDKS = {"pulumi", "pulumi_aws", "pulumi_azure_native", "pulumi_gcp", "pulumi_kubernetes", "lightkube", "kubernetes",
        "boto3", "botocore", "httpx", "msgspec", "grpc"}  # fmt: skip
"""Distributions the wheel does not bring: no module in it may import them (``pulumi_policy`` may)."""


@pytest.fixture(scope="module")
def wheel(policy_pack_wheel: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(policy_pack_wheel)


def _top_imports(source: str) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def test_no_module_in_the_wheel_imports_a_cloud_sdk_or_client(wheel: zipfile.ZipFile) -> None:
    for name in wheel.namelist():
        if name.endswith(".py"):
            assert not _top_imports(wheel.read(name).decode()) & SDKS, name


def test_the_wheel_holds_the_pack_and_the_profiles_the_registry_loads(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert "gpuready/policy/policies.py" in names
    assert not {n for n in names if n.endswith("__main__.py")}  # the pack directory's own entry point stays out
    assert {n.split("/")[0] for n in names if not n.startswith("gpuready_policy-")} == {"gpuready"}  # one package
    assert {f"gpuready/{cloud}/profile.py" for cloud in ("eks", "aks", "gke")} <= names  # loaded by name
    assert {f"gpuready/{cloud}/capacity.py" for cloud in ("eks", "aks", "gke")} <= names
    assert not {n for n in names if n.endswith(("node_pool.py", "stack_adapter.py"))}  # adapters stay out


def test_metadata_pins_what_the_code_imports_as_the_project_does(wheel: zipfile.ZipFile) -> None:
    metadata = wheel.read(f"gpuready_policy-{policy_pack.version()}.dist-info/METADATA").decode()
    assert "Requires-Dist: pulumi-policy>=1.21.0,<2" in metadata  # the project's range, as pyproject.toml has it
    assert {line.split(": ", 1)[1] for line in metadata.splitlines() if line.startswith("Requires-Dist")} == set(
        policy_pack.requirements()
    )


def test_record_lists_every_file_with_its_hash(wheel: zipfile.ZipFile) -> None:
    record = wheel.read(f"gpuready_policy-{policy_pack.version()}.dist-info/RECORD").decode().splitlines()
    assert {line.split(",")[0] for line in record} == set(wheel.namelist())


def test_the_same_sources_give_the_same_bytes(tmp_path: Path) -> None:
    first = policy_pack.build(tmp_path / "a").read_bytes()
    assert policy_pack.build(tmp_path / "b").read_bytes() == first


def test_the_pack_requirements_name_this_version_of_the_wheel() -> None:
    lines = (policy_pack.PACK / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line and not line.startswith("#")] == [f"./wheels/{policy_pack.wheel_name()}"]
