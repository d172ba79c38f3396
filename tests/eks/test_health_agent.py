"""The EKS node monitoring agent add-on in a stack: planned by the real stack program, its arguments checked against
the SDK's ``AddonArgs`` and botocore's ``CreateAddon``, its configuration values against the add-on's schema."""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Any

import botocore.session  # type: ignore[import-untyped]
import jsonschema
import pulumi_aws as aws
import pytest

from gpuready.cli.main import main
from gpuready.core.health.agent_chart import AGENT_ADDON, AGENT_ADDON_VERSION
from gpuready.eks.addon import ADDON_RESOURCE
from gpuready.eks.health_agent import addon_args

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT.parent / "shared/reference/upstream/eks-node-monitoring-agent/configuration.schema.v1.7.0.json"
STACK_LINE = 'gpuready:gpuStack: "{kind: gpu-operator, timeoutSeconds: 1200}"'


def test_addon_args_are_sdk_inputs_and_botocore_members() -> None:
    args = addon_args("ml", {"dcgmAgent": {"tolerations": []}}, {"team": "ml"})
    sdk = inspect.signature(aws.eks.AddonArgs.__init__).parameters
    assert set(args) <= set(sdk)
    request = botocore.session.get_session().get_service_model("eks").operation_model("CreateAddon").input_shape
    for key in ("cluster_name", "addon_name", "addon_version", "configuration_values", "tags"):
        head, *rest = key.split("_")
        assert head + "".join(p.title() for p in rest) in request.members, key
    assert args["resolve_conflicts_on_create"] in request.members["resolveConflicts"].enum
    assert args["resolve_conflicts_on_update"] in request.members["resolveConflicts"].enum
    assert (args["addon_name"], args["addon_version"]) == (AGENT_ADDON, AGENT_ADDON_VERSION)
    fields = (ADDON_RESOURCE.name_field, ADDON_RESOURCE.version_field, ADDON_RESOURCE.values_field)
    assert set(fields) <= set(request.members)  # the add-on's inputs as gpuready reads any program's


def test_the_addon_resource_is_the_sdk_s() -> None:
    assert repr(ADDON_RESOURCE.type) in inspect.getsource(aws.eks.Addon._internal_init)


def _plan(tmp_path: Path, capsys: pytest.CaptureFixture[str], stack: str) -> dict[str, Any]:
    text = (ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text(encoding="utf-8")
    assert STACK_LINE in text, "stacks/Pulumi.eks-dev.yaml changed"
    path = tmp_path / "Pulumi.health.yaml"
    path.write_text(text.replace(STACK_LINE, f'gpuready:gpuStack: "{stack}"'), encoding="utf-8")
    code = main(["plan", "--config", str(path), "--project-dir", str(ROOT), "-o", "json", "--no-policy"])
    out, err = capsys.readouterr()
    assert code == 0, err
    plan: dict[str, Any] = json.loads(out)
    return plan


def test_the_stack_installs_the_agent_with_the_operators_dcgm(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    plan = _plan(
        tmp_path, capsys, "{kind: gpu-operator, timeoutSeconds: 1200, health: {agent: eks-node-monitoring-agent}}"
    )
    [addon] = [r for r in plan["resources"] if r["type"] == "aws:eks/addon:Addon"]
    inputs = addon["inputs"]
    assert (inputs["addonName"], inputs["addonVersion"]) == (AGENT_ADDON, AGENT_ADDON_VERSION)
    values = json.loads(inputs["configurationValues"])
    if SCHEMA.is_file():
        jsonschema.Draft7Validator(json.loads(SCHEMA.read_text())).validate(values)
    terms = values["dcgmAgent"]["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert {"key": "gpuready.io/gpu-pool", "operator": "DoesNotExist"} in terms["nodeSelectorTerms"][0][
        "matchExpressions"
    ]
    [release] = [r for r in plan["resources"] if r["type"] == "kubernetes:helm.sh/v3:Release"]
    assert release["inputs"]["values"]["dcgm"] == {"enabled": True}


def test_without_health_no_agent_is_installed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = _plan(tmp_path, capsys, "{kind: gpu-operator, timeoutSeconds: 1200}")
    assert not [r for r in plan["resources"] if r["type"] == "aws:eks/addon:Addon"]
