"""``gpuready plan --program`` on a Pulumi YAML program: the gpuready resources of the repository's YAML example
pass; broken copies fail with exit 2, each problem named by resource and property path; the rest is not planned."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.cli.main import main
from gpuready.package.yaml_program import check_yaml_program

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "yaml_eks"


def test_the_repository_s_yaml_example_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--program", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "3 gpuready resource(s) checked" in out
    assert "Not planned: the rest of the program" in out and "cluster (pulumi:providers:kubernetes)" in out
    assert "No problems" in out


def _broken(tmp_path: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    program = tmp_path / "program"
    shutil.copytree(EXAMPLE, program)
    document = yaml.safe_load((program / "Pulumi.yaml").read_text())
    change(document)
    (program / "Pulumi.yaml").write_text(yaml.safe_dump(document, sort_keys=False))
    return program


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(document: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node: Any = document
        for key in parents:
            node = node[key]
        if value is None:
            del node[last]
        else:
            node[last] = value

    return change


BROKEN = [
    # A pool key the schema does not have (through the variable the resource references).
    (_set("variables/trainPool/instanceTyp", "p4d.24xlarge"), "resources.train.properties.pool.instanceTyp"),
    # An instance type the config models refuse.
    (_set("variables/trainPool/instanceType", "p4d.96xlarge"), "resources.train.properties.pool.instanceType"),
    # A sharing the models refuse (replicas below 2).
    (_set("variables/sharedPool/sharing/replicas", 1), "resources.shared.properties.pool.sharing.replicas"),
    # A required input left out.
    (_set("resources/train/properties/clusterName", None), "resources.train.properties.clusterName"),
    # An input the component does not take.
    (_set("resources/train/properties/nodeRole", "x"), "resources.train.properties.nodeRole"),
    # A wrong property type.
    (_set("resources/operator/properties/namespace", 5), "resources.operator.properties.namespace"),
    # A component gpuready does not have.
    (_set("resources/train/type", "gpuready:index:EksGpuPool"), "resources.train.type"),
    # A model input known only when the program runs.
    (_set("resources/train/properties/pool", "${cluster.id}"), "resources.train.properties.pool"),
    # A GPU stack key the operator's model refuses.
    (_set("resources/operator/properties/cloud", "ec2"), "resources.operator.properties.cloud"),
]


@pytest.mark.parametrize(("change", "path"), BROKEN)
def test_a_broken_copy_names_the_resource_and_property(
    change: Callable[[dict[str, Any]], None], path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = _broken(tmp_path, change)
    assert main(["plan", "--program", str(program), "-o", "json"]) == 2
    report = json.loads(capsys.readouterr().out)
    assert any(p["path"].startswith(path) for p in report["problems"]), report["problems"]
    assert report["runtime"] == "yaml" and "not planned" in report["note"].lower()
    assert {p["resource"] for p in report["problems"]} <= {r["name"] for r in report["checked"]}


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    def two(document: dict[str, Any]) -> None:
        _set("variables/trainPool/instanceType", "p4d.96xlarge")(document)
        _set("resources/operator/properties/namespace", 5)(document)

    check = check_yaml_program(_broken(tmp_path, two), "dev")
    assert {p.path.split(".")[1] for p in check.problems} == {"train", "operator"}


def test_stack_config_resolves_config_references(tmp_path: Path) -> None:
    """``${clusterName}`` takes the stack's value: a bad one is caught where it is a model input."""
    program = _broken(tmp_path, _set("variables/trainPool/name", "${poolName}"))
    (program / "Pulumi.dev.yaml").write_text("config:\n  gpuready-yaml-eks:poolName: Bad_Name!\n")
    check = check_yaml_program(program, "dev")
    assert [p.path for p in check.problems] == [  # the operator's pools reference the same variable
        "resources.train.properties.pool.name",
        "resources.operator.properties.pools[0].name",
    ]
    (program / "Pulumi.dev.yaml").write_text("config:\n  gpuready-yaml-eks:poolName: train\n")
    assert check_yaml_program(program, "dev").problems == ()


@pytest.mark.parametrize("flags", [["--set", "clusterName=x"], ["-o", "sarif"], ["--preview"]])
def test_flags_of_the_python_plan_are_refused_not_ignored(flags: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--program", str(EXAMPLE), *flags]) == 2
    assert "not for a Pulumi YAML program" in capsys.readouterr().err
