"""``gpuready new``: a project of one's own, written outside the repository, that plans offline at once per cloud."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from gpuready.cli.main import main
from gpuready.cli.new_command import requirement_of
from gpuready.core.clouds.registry import cloud_names, cloud_profile
from gpuready.core.config_model.settings_model import cloud_settings_models, pulumi_types
from gpuready.new_project.declarations import config_block
from gpuready.new_project.flags import CLOUDS as CHOICES
from gpuready.new_project.flags import LIST_KEYS, WIRING_FLAGS
from tools import project_config

ROOT = Path(__file__).resolve().parents[2]
GPUREADY = Path(sys.executable).with_name("gpuready")
WIRING_VALUES = {
    "eksNodeRoleArn": ["arn:aws:iam::123456789012:role/ml-prod-gpu-nodes"],
    "eksSubnetIds": ["subnet-0a1b2c3d4e5f60718", "subnet-0f1e2d3c4b5a69788"],
    "aksResourceGroup": ["rg-ml-prod"],
    "gkeLocation": ["us-central1-a"],
}
"""One valid value (or several, for list keys) of every key some cloud requires."""


def required_flags(cloud: str) -> list[str]:
    return [
        part
        for key in cloud_profile(cloud).settings.required_keys()
        for value in WIRING_VALUES[key]
        for part in (WIRING_FLAGS[key], value)
    ]


@pytest.mark.parametrize("cloud", cloud_names())
def test_every_wiring_setting_of_every_cloud_has_a_flag(cloud: str) -> None:
    profile = cloud_profile(cloud)
    assert set(profile.settings.stack_keys()) <= set(WIRING_FLAGS)


def test_the_cloud_choices_are_the_registered_clouds() -> None:
    """The parser's ``--cloud`` choices (the generated table: the parser loads no cloud) are the registry's names."""
    assert cloud_names() == CHOICES
    assert project_config.wiring_flags() == WIRING_FLAGS


def test_the_flags_are_the_cloud_models_keys_spelt_as_flags() -> None:
    """The table the parser reads without pydantic is the settings models' keys: each ``--<key in kebab case>``,
    a list key's singular (its flag repeats)."""
    keys = [key for model in cloud_settings_models() for key in model.stack_keys()]
    assert list(WIRING_FLAGS) == keys
    assert {key for key in keys if pulumi_types()[key] == "array"} == LIST_KEYS
    for key, flag in WIRING_FLAGS.items():
        kebab = "--" + re.sub(r"(?<!^)([A-Z])", r"-\1", key).lower()
        assert flag == (kebab.removesuffix("s") if key in LIST_KEYS else kebab), key


def test_the_repository_project_carries_the_config_block_new_projects_get() -> None:
    assert (ROOT / "Pulumi.yaml").read_text(encoding="utf-8").endswith(config_block())


@pytest.mark.parametrize("cloud", cloud_names())
def test_a_new_project_outside_the_repository_plans_offline(
    cloud: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    where = tmp_path_factory.mktemp(f"own-{cloud}")
    assert ROOT not in where.parents
    project = where / "gpu-infra"
    made = subprocess.run(
        [str(GPUREADY), "new", str(project), "--cloud", cloud, "--cluster-name", "ml-prod", "--stack", "prod",
         *required_flags(cloud)],
        capture_output=True, text=True, cwd=where, timeout=120, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    assert "gpuready plan --program . --stack prod" in made.stdout
    files = {p.relative_to(project).as_posix() for p in project.rglob("*") if p.is_file()}
    assert files == {
        "Pulumi.yaml", "requirements.txt", "__main__.py", "Pulumi.prod.yaml", ".gitignore",
        ".github/workflows/gpuready-plan.yml",
    }  # fmt: skip
    assert (project / "requirements.txt").read_text().startswith("gpuready")
    assert "from gpuready.stack_program import run" in (project / "__main__.py").read_text()
    repo_config = yaml.safe_load((ROOT / "Pulumi.yaml").read_text(encoding="utf-8"))["config"]
    assert yaml.safe_load((project / "Pulumi.yaml").read_text())["config"] == repo_config
    stack = yaml.safe_load((project / "Pulumi.prod.yaml").read_text())["config"]
    assert stack["gpuready:cloud"] == cloud and stack["gpuready:clusterName"] == "ml-prod"
    for key in cloud_profile(cloud).settings.required_keys():
        given = WIRING_VALUES[key]
        assert stack[f"gpuready:{key}"] in (given, given[0])
    assert len(yaml.safe_load(stack["gpuready:nodePools"])) == 1

    planned = subprocess.run(
        [str(GPUREADY), "plan", "--program", str(project), "--stack", "prod", "-o", "json"],
        capture_output=True, text=True, cwd=where, timeout=300, check=False,
    )  # fmt: skip
    assert planned.returncode == 0, planned.stderr
    plan = yaml.safe_load(planned.stdout)
    assert plan["stack"] == "prod" and len(plan["pools"]) == 1

    workflow = yaml.safe_load((project / ".github/workflows/gpuready-plan.yml").read_text())
    steps = workflow["jobs"]["plan"]["steps"]
    commands = "\n".join(str(step.get("run", "")) for step in steps)
    assert "gpuready plan --program . --stack prod -o json > plan-new.json" in commands
    assert "gpuready diff plan-old.json plan-new.json" in commands
    assert "pull_request" in workflow[True]  # YAML 1.1 reads the key `on` as true


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        (None, "gpuready==0.1.0"),
        ('{"url": "https://example.com/gpuready.git", "vcs_info": {"vcs": "git", "commit_id": "abc123"}}',
         "gpuready @ git+https://example.com/gpuready.git@abc123"),
        ('{"url": "file:///w/dist/gpuready-0.1.0-py3-none-any.whl", "archive_info": {}}',
         "gpuready @ file:///w/dist/gpuready-0.1.0-py3-none-any.whl"),
        ('{"url": "file:///w/gpuready", "dir_info": {"editable": true}}', "gpuready @ file:///w/gpuready"),
        ("{}", None),
    ],
)  # fmt: skip
def test_the_requirement_follows_where_gpuready_was_installed_from(record: str | None, expected: str | None) -> None:
    assert requirement_of(record, "0.1.0") == expected


def test_a_file_in_the_way_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "p").write_text("mine")
    assert main(["new", str(tmp_path / "p"), "--cloud", "gke", "--cluster-name", "ml", *required_flags("gke")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert (tmp_path / "p").read_text() == "mine"


def test_an_unknown_origin_asks_for_the_requirement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("gpuready.cli.new_command.installed_requirement", lambda: None)
    assert main(["new", str(tmp_path / "p"), "--cloud", "gke", "--cluster-name", "ml", *required_flags("gke")]) == 2
    assert "--gpuready" in capsys.readouterr().err
    assert not (tmp_path / "p").exists()
    given = ["--gpuready", "gpuready @ git+https://example.com/gpuready.git@v0.1.0"]
    assert (
        main(["new", str(tmp_path / "p"), "--cloud", "gke", "--cluster-name", "ml", *required_flags("gke"), *given])
        == 0
    )
    assert (tmp_path / "p" / "requirements.txt").read_text() == f"{given[1]}\n"


def test_a_non_empty_directory_is_refused_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code = main(["new", str(tmp_path), "--cloud", "gke", "--cluster-name", "ml", *required_flags("gke")])
    assert code == 2
    assert "is not empty" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize(
    ("cloud", "flags", "said"),
    [
        ("eks", ["--eks-subnet-id", "subnet-0a1b2c3d4e5f60718"], "--eks-node-role-arn: is required with --cloud eks"),
        ("gke", [*required_flags("gke"), "--aks-resource-group", "rg"], "--aks-resource-group: is not a GKE setting"),
        ("eks", ["--eks-node-role-arn", "ml-prod-gpu-nodes", "--eks-subnet-id", "subnet-0a1b2c3d4e5f60718"],
         "eksNodeRoleArn"),
        ("gke", ["--gke-location", "us-central1"], "gkeNodeLocations"),
    ],
)  # fmt: skip
def test_bad_wiring_is_refused_before_anything_is_written(
    cloud: str, flags: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    code = main(["new", str(project), "--cloud", cloud, "--cluster-name", "ml", *flags])
    assert code == 2
    assert said in capsys.readouterr().err
    assert not project.exists()
