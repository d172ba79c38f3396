"""``gpuready plan`` end to end: the real stack program, run offline in-process through the CLI entry point.

Each in-process plan runs the program under ``stacks/`` with the example stack files (or a file written
here), so these tests pin the whole chain: argument parsing, Pulumi.yaml config types, the stack program's
validation, the pool components and the rendered table / JSON.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.cli import main as cli
from tests.pulumi_mocks import rotated

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
PYTHON = str(VENV_BIN / "python") if (VENV_BIN / "python").exists() else sys.executable
GPUREADY = VENV_BIN / "gpuready"
STACKS = ("eks-dev", "aks-dev", "gke-dev")
GPU_TAINT_TEXT = "nvidia.com/gpu=present:NoSchedule"
GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
TABLE_HEADERS = (
    "POOL", "PROVISIONER", "CAPACITY", "INSTANCE", "GPU", "GPUS/NODE", "GPU-LIMIT", "ALLOCATABLE/NODE", "TAINT",
    "SHARING", "DRIVER", "FABRIC", "SCALES",
)  # fmt: skip
PLAN_KEYS = {
    "formatVersion",
    "stack",
    "project",
    "resources",
    "outputs",
    "violations",
    "pools",
    "warnings",
    "policyGate",
}
RESOURCE_KEYS = {"type", "name", "urn", "parent", "custom", "inputs"}
OPTIONAL_RESOURCE_KEYS = {"provider", "dependencies", "options"}
"""Present when set: the provider reference, the URNs the resource depends on, its lifecycle options."""

COMPONENT_TYPES = {
    "eks-dev": "gpuready:index:EksGpuNodePool",
    "aks-dev": "gpuready:index:AksGpuNodePool",
    "gke-dev": "gpuready:index:GkeGpuNodePool",
}
CHILD_TYPES = {
    "eks-dev": ("aws:eks/nodeGroup:NodeGroup", "node-group"),
    "aks-dev": ("azure-native:containerservice:AgentPool", "agent-pool"),
    "gke-dev": ("gcp:container/nodePool:NodePool", "node-pool"),
}
POOLS = {
    "eks-dev": ("l4-shared", "h100-mig", "a10g-br"),
    "aks-dev": ("t4shared", "a100mig", "h100spot"),
    "gke-dev": ("l4-ts", "a100-mig", "t4-mps"),
}
CLUSTERS = {"eks-dev": "ml-dev", "aks-dev": "aks-ml-dev", "gke-dev": "ml-dev"}
GPU_STACK_TYPES = {
    "eks-dev": "gpuready:index:GpuOperator",
    "aks-dev": "gpuready:index:NvidiaDevicePlugin",
}
RESOURCE_COUNTS = {"eks-dev": 54, "aks-dev": 11, "gke-dev": 6}
"""Two per pool, plus for a chart stack: the Kubernetes provider, the GPU stack component, its namespace, its
device-plugin config map and its Helm release; eks-dev also runs the bin-packing scheduler (a component and its
nine objects) and tags each node group's Auto Scaling group for scale from zero (13 + 11 + 9 node-template tags:
one per label, taint and extended resource); gke-dev uses GKE's own stack: nothing more."""

# Per pool: instance type, GPU, GPUs per node, allocatable per node (as the table prints it), and words the
# SHARING and DRIVER cells must contain. Checked against the catalogs by hand:
#   g6.12xlarge = 4 x L4 (x4 time-slicing = 16); p5.48xlarge = 8 x H100 80GB, mig-parted all-balanced =
#   2 x 1g.10gb + 1 x 2g.20gb + 1 x 3g.40gb per GPU; NC24ads_A100_v4 = 1 x A100 80GB, MIG1g = 7 x 1g.10gb;
#   a2-highgpu-1g = 1 x A100 40GB, 1g.5gb = 7 partitions that GKE advertises as nvidia.com/gpu.
TABLE_ROWS: dict[str, dict[str, tuple[str, str, str, str, tuple[str, ...], tuple[str, ...]]]] = {
    "eks-dev": {
        "a10g-br": ("g5.2xlarge", "a10g", "1", "nvidia.com/gpu=1", ("none",), ("BOTTLEROCKET_x86_64_NVIDIA",)),
        "h100-mig": (
            "p5.48xlarge",
            "h100",
            "8",
            "nvidia.com/mig-1g.10gb=16, nvidia.com/mig-2g.20gb=8, nvidia.com/mig-3g.40gb=8",
            ("mig", "all-balanced", "mixed"),
            ("AL2023_x86_64_NVIDIA",),
        ),
        "l4-shared": ("g6.12xlarge", "l4", "4", "nvidia.com/gpu=16", ("time-slicing", "4"), ("AL2023_x86_64_NVIDIA",)),
    },
    "aks-dev": {
        "a100mig": (
            "Standard_NC24ads_A100_v4",
            "a100-80gb",
            "1",
            "nvidia.com/mig-1g.10gb=7",
            ("mig", "1g.10gb", "mixed"),
            ("Install",),
        ),
        "h100spot": ("Standard_NC40ads_H100_v5", "h100-nvl", "1", "nvidia.com/gpu=1", ("none",), ("Install",)),
        "t4shared": ("Standard_NC8as_T4_v3", "t4", "1", "nvidia.com/gpu=2", ("time-slicing", "2"), ("Install",)),
    },
    "gke-dev": {
        "a100-mig": ("a2-highgpu-1g", "a100", "1", "nvidia.com/gpu=7", ("mig", "1g.5gb"), ("GKE", "DEFAULT")),
        "l4-ts": ("g2-standard-8", "l4", "1", "nvidia.com/gpu=4", ("time-slicing", "4"), ("GKE", "DEFAULT")),
        "t4-mps": ("n1-standard-8", "t4", "1", "nvidia.com/gpu=2", ("mps", "2"), ("GKE", "DEFAULT")),
    },
}
LABEL_LINE_MUST_SHOW: dict[str, dict[str, tuple[str, ...]]] = {
    "eks-dev": {
        "a10g-br": (
            "nvidia.com/gpu.deploy.driver=false",
            "nvidia.com/gpu.deploy.device-plugin=false",
            "nvidia.com/gpu.deploy.container-toolkit=false",
            "nvidia.com/gpu.deploy.mig-manager=false",
            "(+1 more)",  # example.com/team is set but not one of the prefixes the table shows
        ),
        "h100-mig": ("nvidia.com/mig.config=all-balanced", "gpuready.io/sharing=mig"),
        "l4-shared": ("nvidia.com/device-plugin.config=time-slicing-x4-strict", "gpuready.io/sharing=time-slicing"),
    },
    "aks-dev": {
        "a100mig": ("gpuready.io/sharing=mig", "gpuready.io/accelerator=a100-80gb"),
        "h100spot": ("gpuready.io/sharing=none",),
        "t4shared": ("nvidia.com/device-plugin.config=time-slicing-x2",),
    },
    "gke-dev": {
        "a100-mig": ("gpuready.io/sharing=mig",),
        "l4-ts": ("gpuready.io/sharing=time-slicing",),
        "t4-mps": ("gpuready.io/sharing=mps",),
    },
}


@dataclass(frozen=True)
class CliResult:
    code: int
    out: str
    err: str


def run_cli(*args: str) -> CliResult:
    """``gpuready <args>`` in-process, with its own stdout/stderr buffers (usable from module fixtures)."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(list(args))
    return CliResult(code, out.getvalue(), err.getvalue())


def plan_with_capsys(capsys: pytest.CaptureFixture[str], *args: str) -> CliResult:
    """``gpuready plan <args>`` in-process, output taken with capsys."""
    capsys.readouterr()
    code = cli.main(["plan", *args])
    captured = capsys.readouterr()
    return CliResult(code, captured.out, captured.err)


def plan_json(*args: str) -> dict[str, Any]:
    result = run_cli("plan", *args, "-o", "json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert isinstance(document, dict)
    return document


def resource(plan: Mapping[str, Any], type_: str, name: str) -> dict[str, Any]:
    matches = [r for r in plan["resources"] if r["type"] == type_ and r["name"] == name]
    assert len(matches) == 1, f"{type_} {name}: {[(r['type'], r['name']) for r in plan['resources']]}"
    found = matches[0]
    assert isinstance(found, dict)
    return found


def child_inputs(plan: Mapping[str, Any], stack: str, pool: str) -> dict[str, Any]:
    type_, suffix = CHILD_TYPES[stack]
    inputs = resource(plan, type_, f"{pool}-{suffix}")["inputs"]
    assert isinstance(inputs, dict)
    return inputs


def floats_in(value: object, where: str = "$") -> list[str]:
    """Paths of every float anywhere in a JSON value (whole numbers must be ints)."""
    if isinstance(value, float):
        return [where]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in floats_in(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in floats_in(v, f"{where}[{i}]")]
    return []


MAP_VALUED_INPUTS = {
    "labels", "nodeLabels", "tags", "resourceLabels", "values", "data", "hard", "matchLabels", "nodeSelector",
    "annotations",
}  # fmt: skip
"""Inputs whose keys are user data (label and tag keys, Helm values, config map keys), not property names."""


def non_camel_keys(value: object, where: str = "") -> list[str]:
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in non_camel_keys(v, f"{where}[{i}]")]
    if not isinstance(value, dict):
        return []
    bad: list[str] = []
    for key, item in value.items():
        path = f"{where}.{key}" if where else key
        if not re.fullmatch(r"[a-z][a-zA-Z0-9]*", key):
            bad.append(path)
        if key not in MAP_VALUED_INPUTS:
            bad += non_camel_keys(item, path)
    return bad


def table_cells(table_text: str) -> tuple[list[str], dict[str, dict[str, str]]]:
    """The pool table's header tokens and, per pool, its cells keyed by header (cut at the header's columns)."""
    lines = table_text.splitlines()
    header_index = next(i for i, line in enumerate(lines) if line.startswith("POOL "))
    header = lines[header_index]
    starts = [m.start() for m in re.finditer(r"\S+", header)]
    tokens = header.split()
    rows: dict[str, dict[str, str]] = {}
    for line in lines[header_index + 1 :]:
        if not line.strip():
            break
        bounds = [*starts, len(line) + 1]
        cells = [line[bounds[i] : bounds[i + 1]].strip() for i in range(len(starts))]
        rows[cells[0]] = dict(zip(tokens, cells, strict=True))
    return tokens, rows


@pytest.fixture(autouse=True)
def _in_project_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Plan from the project directory, as a user would (the CLI looks for Pulumi.yaml upwards)."""
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def json_plans() -> Iterator[dict[str, dict[str, Any]]]:
    """The JSON plan of every example stack, made once for the module."""
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        yield {stack: plan_json("--stack", stack) for stack in STACKS}


# --- the table -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", STACKS)
def test_table_plan_shows_the_tree_the_pool_table_and_the_labels(
    capsys: pytest.CaptureFixture[str], stack: str
) -> None:
    result = plan_with_capsys(capsys, "--stack", stack)
    assert result.code == 0, result.err
    assert result.err == ""
    out = result.out
    count = RESOURCE_COUNTS[stack]
    assert out.splitlines()[0] == f"Plan of stack {stack!r} (project 'gpuready'): {count} resources, offline"

    # The resource tree: root stack, one component per pool, its cloud resource nested under it.
    tree = out.splitlines()
    assert f"pulumi:pulumi:Stack  gpuready-{stack}" in tree
    child_type, suffix = CHILD_TYPES[stack]
    for pool in POOLS[stack]:
        component_line = next(i for i, line in enumerate(tree) if line.endswith(f"{COMPONENT_TYPES[stack]}  {pool}"))
        child_line = next(line for line in tree[component_line + 1 :] if f"{child_type}  {pool}-{suffix}" in line)
        assert f"└─ {child_type}  {pool}-{suffix}  [" in child_line, child_line  # the last child, with its options
        assert "deleteBeforeReplace: false" in child_line
        assert child_line.index(child_type) > tree[component_line].index(COMPONENT_TYPES[stack])  # nested deeper

    # The pool table: the fixed header, one row per pool, sorted.
    tokens, rows = table_cells(out)
    assert tuple(tokens) == TABLE_HEADERS
    assert list(rows) == sorted(POOLS[stack])
    for pool, (instance, gpu, gpus, allocatable, sharing_words, driver_words) in TABLE_ROWS[stack].items():
        row = rows[pool]
        assert (row["INSTANCE"], row["GPU"], row["GPUS/NODE"], row["ALLOCATABLE/NODE"]) == (
            instance,
            gpu,
            gpus,
            allocatable,
        )
        assert row["TAINT"] == GPU_TAINT_TEXT
        assert row["PROVISIONER"] == ("node-group" if stack == "eks-dev" else "node-pool")
        assert row["GPU-LIMIT"] == "-"  # fixed pools: maxSize bounds them
        assert f"requirements {pool}: {instance}" in out.splitlines()
        assert all(word in row["SHARING"] for word in sharing_words), row["SHARING"]
        assert all(word in row["DRIVER"] for word in driver_words), row["DRIVER"]
        assert row["SCALES"].startswith("yes 0->"), row["SCALES"]  # every example pool scales (issue #24)

    # The labels lines, one per pool.
    label_lines = {line.split(":", 1)[0].removeprefix("labels "): line for line in tree if line.startswith("labels ")}
    assert sorted(label_lines) == sorted(POOLS[stack])
    for pool, must_show in LABEL_LINE_MUST_SHOW[stack].items():
        line = label_lines[pool]
        for text in (f"gpuready.io/pool={pool}", "nvidia.com/gpu.present=true", *must_show):
            assert text in line, (text, line)


def test_aks_table_shows_gpuready_s_own_gpu_taint_for_the_spot_pool_too(capsys: pytest.CaptureFixture[str]) -> None:
    _, rows = table_cells(plan_with_capsys(capsys, "--stack", "aks-dev").out)
    assert rows["h100spot"]["TAINT"] == GPU_TAINT_TEXT


def test_wide_adds_the_pools_node_bounds_resource_and_selector_and_no_headers_drops_the_header(
    capsys: pytest.CaptureFixture[str],
) -> None:
    narrow = plan_with_capsys(capsys, "--stack", "eks-dev", "--no-policy").out.splitlines()
    wide = plan_with_capsys(capsys, "--stack", "eks-dev", "--no-policy", "-o", "wide").out.splitlines()
    bare = plan_with_capsys(capsys, "--stack", "eks-dev", "--no-policy", "-o", "wide", "--no-headers").out.splitlines()
    header = next(line for line in wide if line.startswith("POOL "))
    assert header.split() == [*TABLE_HEADERS, "MIN-NODES", "MAX-NODES", "RESOURCE", "SELECTOR"]
    row = next(line for line in wide if line.startswith("h100-mig "))
    assert row.split()[-1] == "gpuready.io/pool=h100-mig"
    assert [line for line in wide if line != header] == bare  # only the header row goes
    assert len(wide) == len(narrow)


# --- the JSON plan -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", STACKS)
def test_json_plan_has_exactly_the_plan_file_keys(json_plans: dict[str, dict[str, Any]], stack: str) -> None:
    plan = json_plans[stack]
    assert set(plan) == PLAN_KEYS
    assert (plan["stack"], plan["project"]) == (stack, "gpuready")
    # The example stacks pass the policy gate, GPU stacks included: no violation at all.
    assert plan["violations"] == []
    assert len(plan["resources"]) == RESOURCE_COUNTS[stack]
    for item in plan["resources"]:
        assert RESOURCE_KEYS <= set(item) <= RESOURCE_KEYS | OPTIONAL_RESOURCE_KEYS
    # Every pool, with its capacity as the table shows it: fixed pools set no GPU limit.
    assert [p["name"] for p in plan["pools"]] == sorted(POOLS[stack])
    for pool in plan["pools"]:
        assert pool["provisioner"] == ("node-group" if stack == "eks-dev" else "node-pool")
        assert pool["gpuLimit"] is None and pool["requirements"] == pool["instanceType"]


@pytest.mark.parametrize("stack", STACKS)
def test_json_parents_are_engine_style_urns(json_plans: dict[str, dict[str, Any]], stack: str) -> None:
    plan = json_plans[stack]
    child_type, suffix = CHILD_TYPES[stack]
    component_type = COMPONENT_TYPES[stack]
    for pool in POOLS[stack]:
        component = resource(plan, component_type, pool)
        assert component["parent"] == f"urn:pulumi:{stack}::gpuready::pulumi:pulumi:Stack::gpuready-{stack}"
        assert component["inputs"] == {}
        child = resource(plan, child_type, f"{pool}-{suffix}")
        assert child["parent"] == f"urn:pulumi:{stack}::gpuready::{component_type}::{pool}"
    assert [r["type"] for r in plan["resources"]].count(component_type) == len(POOLS[stack])


@pytest.mark.parametrize("stack", STACKS)
def test_json_inputs_are_camel_case_with_whole_numbers_as_ints(
    json_plans: dict[str, dict[str, Any]], stack: str
) -> None:
    plan = json_plans[stack]
    assert floats_in(plan) == []
    for item in plan["resources"]:
        assert non_camel_keys(item["inputs"]) == [], item["name"]


@pytest.mark.parametrize("stack", STACKS)
def test_json_outputs_describe_every_pool(json_plans: dict[str, dict[str, Any]], stack: str) -> None:
    outputs = json_plans[stack]["outputs"]
    assert outputs["cloud"] == stack.removesuffix("-dev")
    assert outputs["clusterName"] == CLUSTERS[stack]
    pools = outputs["pools"]
    assert set(pools) == set(POOLS[stack])
    for name, pool in pools.items():
        assert {"resourceName", "allocatable", "nodeSelector", "taint", "tolerations", "gpusPerNode"} <= set(pool)
        assert pool["nodeSelector"] == {"gpuready.io/pool": name}
        assert pool["taint"] == GPU_TAINT
        assert pool["resourceName"] in pool["allocatable"]
        assert all(isinstance(v, int) and v > 0 for v in pool["allocatable"].values())
        assert {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"} in pool["tolerations"]


@pytest.mark.parametrize("stack", ["eks-dev", "aks-dev", "gke-dev"])
def test_json_outputs_name_every_node_pool(json_plans: dict[str, dict[str, Any]], stack: str) -> None:
    pools = json_plans[stack]["outputs"]["pools"]
    # EKS and GKE names carry the suffix of the replacement-forcing inputs; AKS names (12 characters) are fixed.
    expected = {name: name if stack == "aks-dev" else rotated(name) for name in pools}
    assert {name: pool.get("nodePoolName") for name, pool in pools.items()} == expected


def test_eks_dev_node_groups(json_plans: dict[str, dict[str, Any]]) -> None:
    plan = json_plans["eks-dev"]
    gpu_taint = [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}]
    for pool in POOLS["eks-dev"]:
        inputs = child_inputs(plan, "eks-dev", pool)
        assert inputs["clusterName"] == "ml-dev"
        assert inputs["nodeGroupName"] == rotated(pool)
        assert inputs["nodeRoleArn"] == "arn:aws:iam::123456789012:role/ml-dev-gpu-nodes"
        assert inputs["subnetIds"] == ["subnet-0a1b2c3d4e5f60718", "subnet-0f1e2d3c4b5a69788"]
        assert inputs["tags"] == {"team": "ml-platform", "env": "dev"}
        assert inputs["taints"] == gpu_taint
        assert inputs["labels"]["gpuready.io/pool"] == pool

    h100 = child_inputs(plan, "eks-dev", "h100-mig")
    assert h100["amiType"] == "AL2023_x86_64_NVIDIA"
    assert h100["instanceTypes"] == ["p5.48xlarge"]
    assert h100["capacityType"] == "ON_DEMAND"
    assert h100["labels"]["nvidia.com/mig.config"] == "all-balanced"
    assert h100["scalingConfig"] == {"minSize": 0, "maxSize": 2, "desiredSize": 0}
    assert h100["scalingConfig"]["maxSize"] == 2
    assert isinstance(h100["scalingConfig"]["maxSize"], int)
    h100_out = plan["outputs"]["pools"]["h100-mig"]
    assert h100_out["allocatable"] == {
        "nvidia.com/mig-1g.10gb": 16,
        "nvidia.com/mig-2g.20gb": 8,
        "nvidia.com/mig-3g.40gb": 8,
    }
    assert (h100_out["gpusPerNode"], h100_out["accelerator"]) == (8, "h100")

    bottlerocket = child_inputs(plan, "eks-dev", "a10g-br")
    assert bottlerocket["amiType"] == "BOTTLEROCKET_x86_64_NVIDIA"
    deploy = {k: v for k, v in bottlerocket["labels"].items() if k.startswith("nvidia.com/gpu.deploy.")}
    assert deploy == {
        "nvidia.com/gpu.deploy.driver": "false",
        "nvidia.com/gpu.deploy.device-plugin": "false",
        "nvidia.com/gpu.deploy.container-toolkit": "false",
        "nvidia.com/gpu.deploy.mig-manager": "false",
    }
    assert bottlerocket["labels"]["example.com/team"] == "inference"
    assert bottlerocket["scalingConfig"] == {"minSize": 0, "maxSize": 3, "desiredSize": 0}
    assert plan["outputs"]["pools"]["a10g-br"]["allocatable"] == {"nvidia.com/gpu": 1}

    l4 = child_inputs(plan, "eks-dev", "l4-shared")
    assert l4["amiType"] == "AL2023_x86_64_NVIDIA"
    assert l4["capacityType"] == "SPOT"
    assert l4["instanceTypes"] == ["g6.12xlarge"]
    assert l4["scalingConfig"] == {"minSize": 0, "maxSize": 4, "desiredSize": 1}
    assert l4["labels"]["nvidia.com/device-plugin.config"] == "time-slicing-x4-strict"
    assert plan["outputs"]["pools"]["l4-shared"]["allocatable"] == {"nvidia.com/gpu": 16}
    # Whole GPUs and time-sliced GPUs carry no MIG label; only the MIG pool does.
    assert "nvidia.com/mig.config" not in l4["labels"]
    assert "nvidia.com/mig.config" not in bottlerocket["labels"]


def test_aks_dev_agent_pools(json_plans: dict[str, dict[str, Any]]) -> None:
    plan = json_plans["aks-dev"]
    for pool in POOLS["aks-dev"]:
        inputs = child_inputs(plan, "aks-dev", pool)
        assert inputs["agentPoolName"] == pool
        assert inputs["resourceGroupName"] == "rg-ml-dev"
        assert inputs["resourceName"] == "aks-ml-dev"
        assert inputs["gpuProfile"] == {"driver": "Install"}
        assert inputs["mode"] == "User"
        assert inputs["enableAutoScaling"] is True
        assert inputs["tags"]["team"] == "ml-platform"  # the stack's tags, beside the autoscaler's node template
        assert inputs["tags"]["k8s.io_cluster-autoscaler_node-template_label_gpuready.io_pool"] == pool
        assert inputs["nodeTaints"][0] == GPU_TAINT_TEXT

    mig = child_inputs(plan, "aks-dev", "a100mig")
    assert mig["vmSize"] == "Standard_NC24ads_A100_v4"
    assert mig["gpuInstanceProfile"] == "MIG1g"
    assert (mig["minCount"], mig["maxCount"], mig["count"]) == (0, 2, 0)
    assert mig["nodeTaints"] == [GPU_TAINT_TEXT]
    assert plan["outputs"]["pools"]["a100mig"]["allocatable"] == {"nvidia.com/mig-1g.10gb": 7}

    spot = child_inputs(plan, "aks-dev", "h100spot")
    assert spot["scaleSetPriority"] == "Spot"
    assert spot["scaleSetEvictionPolicy"] == "Delete"
    assert spot["spotMaxPrice"] == -1
    assert isinstance(spot["spotMaxPrice"], int)
    assert "gpuInstanceProfile" not in spot
    assert set(spot["nodeTaints"]) == {
        GPU_TAINT_TEXT,
        "kubernetes.azure.com/scalesetpriority=spot:NoSchedule",
        "workload=batch:NoSchedule",
    }
    tolerated = {t["key"] for t in plan["outputs"]["pools"]["h100spot"]["tolerations"]}
    assert tolerated == {"nvidia.com/gpu", "kubernetes.azure.com/scalesetpriority", "workload"}

    shared = child_inputs(plan, "aks-dev", "t4shared")
    assert "scaleSetPriority" not in shared
    assert (shared["minCount"], shared["maxCount"], shared["count"]) == (0, 4, 1)
    assert shared["nodeLabels"]["nvidia.com/device-plugin.config"] == "time-slicing-x2"
    assert plan["outputs"]["pools"]["t4shared"]["allocatable"] == {"nvidia.com/gpu": 2}


def test_gke_dev_node_pools(json_plans: dict[str, dict[str, Any]]) -> None:
    plan = json_plans["gke-dev"]
    for pool in POOLS["gke-dev"]:
        inputs = child_inputs(plan, "gke-dev", pool)
        assert inputs["name"] == rotated(pool)
        assert inputs["cluster"] == "ml-dev"
        assert inputs["location"] == "us-central1"
        assert inputs["nodeLocations"] == ["us-central1-a"]
        node_config = inputs["nodeConfig"]
        assert node_config["taints"] == [{"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}]
        assert node_config["imageType"] == "COS_CONTAINERD"
        assert len(node_config["guestAccelerators"]) == 1
        accelerator = node_config["guestAccelerators"][0]
        assert accelerator["gpuDriverInstallationConfig"] == {"gpuDriverVersion": "DEFAULT"}

    l4 = child_inputs(plan, "gke-dev", "l4-ts")
    (l4_gpu,) = l4["nodeConfig"]["guestAccelerators"]
    assert l4["nodeConfig"]["machineType"] == "g2-standard-8"
    assert (l4_gpu["type"], l4_gpu["count"]) == ("nvidia-l4", 1)
    assert l4_gpu["gpuSharingConfig"] == {"gpuSharingStrategy": "TIME_SHARING", "maxSharedClientsPerGpu": 4}
    assert "gpuPartitionSize" not in l4_gpu
    assert l4["initialNodeCount"] == 1  # desiredSize 1 over the one named zone
    assert l4["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 4, "locationPolicy": "BALANCED"}

    a100 = child_inputs(plan, "gke-dev", "a100-mig")
    (a100_gpu,) = a100["nodeConfig"]["guestAccelerators"]
    assert (a100_gpu["type"], a100_gpu["count"]) == ("nvidia-tesla-a100", 1)
    assert a100_gpu["gpuPartitionSize"] == "1g.5gb"
    assert "gpuSharingConfig" not in a100_gpu
    assert plan["outputs"]["pools"]["a100-mig"]["allocatable"] == {"nvidia.com/gpu": 7}

    t4 = child_inputs(plan, "gke-dev", "t4-mps")
    (t4_gpu,) = t4["nodeConfig"]["guestAccelerators"]
    assert t4["nodeConfig"]["machineType"] == "n1-standard-8"
    assert (t4_gpu["type"], t4_gpu["count"]) == ("nvidia-tesla-t4", 1)
    assert t4_gpu["gpuSharingConfig"] == {"gpuSharingStrategy": "MPS", "maxSharedClientsPerGpu": 2}
    assert t4["nodeConfig"]["spot"] is True
    assert t4["autoscaling"] == {"totalMinNodeCount": 0, "totalMaxNodeCount": 3, "locationPolicy": "ANY"}
    assert t4["initialNodeCount"] == 0  # no desiredSize: minSize 0, over one zone
    assert l4["nodeConfig"]["spot"] is False


# --- --config, --stack-name, --set, --project-dir ----------------------------------------------------------------


def _gke_file(tmp_path: Path, name: str, zones: list[str], pools: list[dict[str, Any]]) -> Path:
    document = yaml.safe_load((ROOT / "stacks" / "Pulumi.gke-dev.yaml").read_text(encoding="utf-8"))
    document["config"]["gpuready:gkeNodeLocations"] = zones
    document["config"]["gpuready:nodePools"] = json.dumps(pools)
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return path


def test_gke_initial_node_count_is_per_zone(tmp_path: Path) -> None:
    zones = ["us-central1-a", "us-central1-b", "us-central1-c"]
    pools = [
        {"name": "l4-ts", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 9, "desiredSize": 6},
        {"name": "l4-nine", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 9, "desiredSize": 9},
        {"name": "t4-mps", "instanceType": "n1-standard-8", "gpu": {"model": "t4", "count": 1}, "minSize": 3,
         "maxSize": 3, "sharing": {"mode": "mps", "replicas": 2}},
    ]  # fmt: skip
    plan = plan_json("--config", str(_gke_file(tmp_path, "Pulumi.zones.yaml", zones, pools)))
    assert plan["stack"] == "zones"
    counts = {r["name"]: r["inputs"]["initialNodeCount"] for r in plan["resources"] if r["type"].startswith("gcp:")}
    # GKE creates initialNodeCount nodes in each zone: 6 over 3 zones is 2 each, 9 is 3 each; without
    # desiredSize the pool starts at minSize (3), i.e. 1 per zone.
    assert counts == {"l4-ts-node-pool": 2, "l4-nine-node-pool": 3, "t4-mps-node-pool": 1}
    for item in plan["resources"]:
        if item["type"].startswith("gcp:"):
            assert item["inputs"]["nodeLocations"] == zones


@pytest.mark.parametrize(("desired", "allowed"), [(4, "Allowed: 3"), (1, "Allowed: 0, 3"), (2, "Allowed: 0, 3")])
def test_gke_initial_size_that_does_not_split_over_the_zones_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], desired: int, allowed: str
) -> None:
    """desiredSize 4 over 3 zones would start 6 nodes (2 per zone, above maxSize 4); 1 or 2 would start 0 or 3."""
    zones = ["us-central1-a", "us-central1-b", "us-central1-c"]
    pools = [{"name": "l4", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 4, "desiredSize": desired}]
    result = plan_with_capsys(capsys, "--config", str(_gke_file(tmp_path, "Pulumi.over.yaml", zones, pools)))
    assert result.code == 2
    assert "gpuready:nodePools[0].desiredSize: GKE starts the same number of nodes in each" in result.err
    assert allowed in result.err
    assert result.out == ""


def test_gke_regional_cluster_without_zones_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pools = [{"name": "l4", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 4}]
    result = plan_with_capsys(capsys, "--config", str(_gke_file(tmp_path, "Pulumi.regional.yaml", [], pools)))
    assert result.code == 2
    assert "gpuready:gkeNodeLocations: is required for a regional" in result.err


def test_gke_compute_class_by_gpu_requirements_needs_no_zones(tmp_path: Path) -> None:
    """Through the real stack program: a regional cluster without gkeNodeLocations plans ComputeClass pools, one
    by GPU requirements and one by a list of machine types, without minSize; the JSON plan lists both pools."""
    pools = [
        {"name": "l4-any", "provisioner": "compute-class", "gpuRequirements": {"model": "l4", "count": 1},
         "maxSize": 3},
        {"name": "l4-two", "provisioner": "compute-class", "instanceType": ["g2-standard-8", "g2-standard-12"],
         "maxSize": 2, "capacity": "spot"},
    ]  # fmt: skip
    plan = plan_json("--config", str(_gke_file(tmp_path, "Pulumi.elastic.yaml", [], pools)))
    classes = {r["name"]: r["inputs"]["spec"]["priorities"] for r in plan["resources"] if r["type"].endswith(
        ":ComputeClass")}  # fmt: skip
    by_name = {p["name"]: p for p in plan["pools"]}
    assert set(by_name) == {"l4-any", "l4-two"}
    assert [p["machineType"] for p in next(v for k, v in classes.items() if k.startswith("l4-two"))] == [
        "g2-standard-8", "g2-standard-12", "g2-standard-8", "g2-standard-12"  # spot first, then on-demand
    ]  # fmt: skip
    any_machines = [p["machineType"] for p in next(v for k, v in classes.items() if k.startswith("l4-any"))]
    assert "g2-standard-4" in any_machines and by_name["l4-any"]["requirements"].startswith("gpuRequirements 1 x l4")
    assert all(p["provisioner"] == "compute-class" and p["gpuLimit"] is None for p in by_name.values())


def _eks_file(tmp_path: Path, name: str, cluster: str = "team-a-cluster") -> Path:
    text = (ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(text.replace("gpuready:clusterName: ml-dev", f"gpuready:clusterName: {cluster}"), "utf-8")
    return path


def test_config_file_names_the_stack_after_the_file(tmp_path: Path) -> None:
    plan = plan_json("--config", str(_eks_file(tmp_path, "Pulumi.team-a.yaml")))
    assert plan["stack"] == "team-a"
    assert plan["outputs"]["clusterName"] == "team-a-cluster"
    node_group = resource(plan, "aws:eks/nodeGroup:NodeGroup", "h100-mig-node-group")
    assert node_group["parent"] == "urn:pulumi:team-a::gpuready::gpuready:index:EksGpuNodePool::h100-mig"
    assert node_group["inputs"]["clusterName"] == "team-a-cluster"


def test_config_file_with_stack_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = _eks_file(tmp_path, "anything.yaml")
    result = plan_with_capsys(capsys, "--config", str(config), "--stack-name", "prod", "-o", "json")
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    assert plan["stack"] == "prod"
    parents = {r["parent"] for r in plan["resources"]}
    assert "urn:pulumi:prod::gpuready::pulumi:pulumi:Stack::gpuready-prod" in parents
    assert all(p.startswith("urn:pulumi:prod::gpuready::") for p in parents)


def test_config_file_table_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = plan_with_capsys(capsys, "--config", str(_eks_file(tmp_path, "Pulumi.team-a.yaml")))
    assert result.code == 0, result.err
    assert result.out.startswith(f"Plan of stack 'team-a' (project 'gpuready'): {RESOURCE_COUNTS['eks-dev']} resources")
    assert "pulumi:pulumi:Stack  gpuready-team-a" in result.out


@pytest.mark.parametrize("key", ["gpuready:clusterName", "clusterName", "gpuready:config:clusterName"])
def test_set_overrides_one_config_value(key: str) -> None:
    plan = plan_json("--stack", "eks-dev", "--set", f"{key}=ml-prod")
    assert plan["outputs"]["clusterName"] == "ml-prod"
    node_groups = [r for r in plan["resources"] if r["type"] == "aws:eks/nodeGroup:NodeGroup"]
    assert len(node_groups) == 3
    assert {r["inputs"]["clusterName"] for r in node_groups} == {"ml-prod"}


def test_set_overrides_the_pool_list() -> None:
    pools = [{"name": "solo", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2, "desiredSize": 1}]
    plan = plan_json("--stack", "eks-dev", "--set", f"gpuready:nodePools={json.dumps(pools)}")
    pool_resources = [(r["type"], r["name"]) for r in plan["resources"] if r["type"] != "pulumi:providers:kubernetes"]
    skipped = ("kubernetes:", "gpuready:index:Gpu", "aws:autoscaling/")
    assert [(t, n) for t, n in pool_resources if not t.startswith(skipped)] == [
        ("aws:eks/nodeGroup:NodeGroup", "solo-node-group"),
        ("gpuready:index:EksGpuNodePool", "solo"),
    ]
    assert set(plan["outputs"]["pools"]) == {"solo"}
    assert resource(plan, "aws:eks/nodeGroup:NodeGroup", "solo-node-group")["inputs"]["scalingConfig"] == {
        "minSize": 0,
        "maxSize": 2,
        "desiredSize": 1,
    }


def test_later_set_of_the_same_key_wins() -> None:
    plan = plan_json("--stack", "aks-dev", "--set", "gpuready:clusterName=a", "--set", "gpuready:clusterName=b")
    assert plan["outputs"]["clusterName"] == "b"


def test_project_dir_lets_the_plan_run_from_anywhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    result = plan_with_capsys(capsys, "--stack", "gke-dev", "--project-dir", str(ROOT), "-o", "json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["stack"] == "gke-dev"
    assert Path.cwd() == tmp_path  # the run put the working directory back

    missing = plan_with_capsys(capsys, "--stack", "gke-dev")
    assert missing.code == 2
    assert "no Pulumi.yaml" in missing.err
    assert "--project-dir" in missing.err
    assert missing.out == ""


def test_project_dir_is_found_upwards_from_a_subdirectory(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(ROOT / "components" / "gpuready" / "cli")
    result = plan_with_capsys(capsys, "--stack", "aks-dev", "-o", "json")
    assert result.code == 0, result.err
    assert json.loads(result.out)["outputs"]["cloud"] == "aks"


def test_preview_runs_the_same_program(capsys: pytest.CaptureFixture[str]) -> None:
    result = plan_with_capsys(capsys, "--stack", "eks-dev", "--preview", "-o", "json")
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    assert set(plan) == PLAN_KEYS
    assert len(plan["resources"]) == RESOURCE_COUNTS["eks-dev"]


# --- invalid input: exit 2, a pointed message on stderr, nothing on stdout -----------------------------------------

MIG_ON_T4 = json.dumps(
    [
        {
            "name": "t4",
            "instanceType": "g4dn.xlarge",
            "minSize": 0,
            "maxSize": 1,
            "sharing": {"mode": "mig", "profile": "1g.5gb"},
        }
    ]
)

INVALID_CASES: dict[str, tuple[list[str], list[str]]] = {
    "mig-on-a-t4": (
        ["--stack", "eks-dev", "--set", f"gpuready:nodePools={MIG_ON_T4}"],
        [
            "invalid gpuready config",
            "gpuready:nodePools[0].sharing.mode",  # where
            "got 'mig'",  # the bad value
            "T4 (g4dn.xlarge) does not support MIG",  # what is wrong
            "Hint: use time-slicing or mps",  # how to fix it
            "A100, H100",  # what would be allowed
        ],
    ),
    "invalid-yaml-in-node-pools": (
        ["--stack", "gke-dev", "--set", "gpuready:nodePools=- {name: l4, instanceType: [g2-standard-4"],
        ["invalid gpuready config", "gpuready:nodePools", "is not valid YAML at line "],
    ),
    "node-pools-not-a-list": (
        ["--stack", "aks-dev", "--set", "gpuready:nodePools=name: t4"],
        ["gpuready:nodePools", "must be a non-empty list of pools"],
    ),
    "empty-node-pools": (
        ["--stack", "aks-dev", "--set", "gpuready:nodePools="],
        ["gpuready:nodePools", "is required", "Hint:"],
    ),
    "eks-node-role-missing": (
        ["--stack", "eks-dev", "--set", "gpuready:eksNodeRoleArn="],
        [
            "gpuready:eksNodeRoleArn",
            "is required when gpuready:cloud is eks",
            "Hint: pulumi config set gpuready:eksNodeRoleArn",
        ],
    ),
    "unknown-cloud": (
        ["--stack", "eks-dev", "--set", "gpuready:cloud=gcp"],
        ["gpuready:cloud", "unknown cloud", "got 'gcp'", "Allowed: eks, aks, gke"],
    ),
    "array-key-given-as-a-string": (
        ["--stack", "eks-dev", "--set", "gpuready:eksSubnetIds=subnet-0a1b2c3d4e5f60718"],
        [
            "Stack 'eks-dev' with configuration key 'eksSubnetIds' must be of type 'array<string>'",
            "got 'subnet-0a1b2c3d4e5f60718'",
        ],
    ),
    "tags-given-as-a-string": (
        ["--stack", "aks-dev", "--set", "gpuready:tags=team=ml"],
        ["Stack 'aks-dev' with configuration key 'tags' must be of type 'array<string>'", "got 'team=ml'"],
    ),
    "unknown-stack": (
        ["--stack", "eks-prod"],
        [
            "stack 'eks-prod' has no config file",
            "Pulumi.eks-prod.yaml",
            "known stacks:",
            "aks-dev",
            "eks-dev",
            "gke-dev",
            "--config",
        ],
    ),
    "missing-config-file": (
        ["--config", "does/not/exist/Pulumi.x.yaml"],
        ["config file does/not/exist/Pulumi.x.yaml not found"],
    ),
    "override-without-equals": (
        ["--stack", "eks-dev", "--set", "gpuready:clusterName"],
        ["config override 'gpuready:clusterName' is not key=value", "Hint:"],
    ),
    "override-with-a-bad-key": (
        ["--stack", "eks-dev", "--set", "a:b:c:d=1"],
        ["could not parse 'a:b:c:d' as a configuration key"],
    ),
}


@pytest.mark.parametrize("case", list(INVALID_CASES), ids=list(INVALID_CASES))
def test_invalid_input_exits_2_with_a_pointed_message(capsys: pytest.CaptureFixture[str], case: str) -> None:
    args, expected = INVALID_CASES[case]
    result = plan_with_capsys(capsys, *args)
    assert result.code == 2, (result.out, result.err)
    assert result.out == ""
    assert result.err.startswith("error: ")
    for text in expected:
        assert text in result.err, (text, result.err)
    assert "Traceback" not in result.err


def test_every_problem_of_a_pool_list_is_reported_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    pools = [
        {"name": "a", "instanceType": "g5.xlarg", "minSize": 0, "maxSize": 1},
        {"name": "b", "instanceType": "g6.xlarge", "minSize": 3, "maxSize": 1},
    ]
    result = plan_with_capsys(capsys, "--stack", "eks-dev", "--set", f"gpuready:nodePools={json.dumps(pools)}")
    assert result.code == 2
    assert "gpuready:nodePools[0].instanceType" in result.err
    assert "did you mean g5.xlarge" in result.err
    assert "gpuready:nodePools[1].minSize" in result.err


def test_missing_eks_role_in_a_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith("  gpuready:eksNodeRoleArn:")]
    config = tmp_path / "Pulumi.norole.yaml"
    config.write_text("\n".join(kept) + "\n", encoding="utf-8")
    result = plan_with_capsys(capsys, "--config", str(config))
    assert result.code == 2
    assert "gpuready:eksNodeRoleArn: is required when gpuready:cloud is eks" in result.err
    assert "Hint: pulumi config set gpuready:eksNodeRoleArn" in result.err


def test_missing_declared_key_without_default_in_a_config_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text(encoding="utf-8")
    config = tmp_path / "Pulumi.nocluster.yaml"
    config.write_text(text.replace("  gpuready:clusterName: ml-dev\n", ""), encoding="utf-8")
    result = plan_with_capsys(capsys, "--config", str(config))
    assert result.code == 2
    assert "Stack 'nocluster' is missing configuration value 'clusterName'" in result.err
    assert "Hint: set it in Pulumi.nocluster.yaml or override it with key=value" in result.err


def test_invalid_yaml_in_a_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "Pulumi.broken.yaml"
    config.write_text("config:\n  gpuready:cloud: [eks\n", encoding="utf-8")
    result = plan_with_capsys(capsys, "--config", str(config))
    assert result.code == 2
    assert f"{config}: invalid YAML" in result.err


def test_stack_and_config_are_mutually_exclusive_and_one_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as neither:
        cli.main(["plan"])
    assert neither.value.code == 2
    with pytest.raises(SystemExit) as both:
        cli.main(["plan", "--stack", "eks-dev", "--config", "x.yaml"])
    assert both.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


# --- one process, many plans ---------------------------------------------------------------------------------------


def test_the_same_plan_twice_gives_identical_json() -> None:
    first = run_cli("plan", "--stack", "eks-dev", "-o", "json")
    second = run_cli("plan", "--stack", "eks-dev", "-o", "json")
    assert first.code == second.code == 0
    assert first.out == second.out
    table_first = run_cli("plan", "--stack", "gke-dev")
    table_second = run_cli("plan", "--stack", "gke-dev")
    assert table_first.out == table_second.out


def test_plans_of_different_stacks_do_not_leak_into_each_other(json_plans: dict[str, dict[str, Any]]) -> None:
    eks = plan_json("--stack", "eks-dev")
    gke = plan_json("--stack", "gke-dev")
    eks_again = plan_json("--stack", "eks-dev")
    assert {r["type"] for r in gke["resources"]} == {"gpuready:index:GkeGpuNodePool", "gcp:container/nodePool:NodePool"}
    assert set(gke["outputs"]) == {"cloud", "clusterName", "gpuStack", "pools"}
    assert set(gke["outputs"]["pools"]) == set(POOLS["gke-dev"])
    assert gke["outputs"]["cloud"] == "gke"
    assert all(r["parent"].startswith("urn:pulumi:gke-dev::") for r in gke["resources"])
    assert eks == eks_again == json_plans["eks-dev"]
    assert gke == json_plans["gke-dev"]


def test_a_refused_plan_leaves_nothing_behind_for_the_next_one(json_plans: dict[str, dict[str, Any]]) -> None:
    refused = run_cli("plan", "--stack", "eks-dev", "--set", f"gpuready:nodePools={MIG_ON_T4}")
    assert refused.code == 2
    assert plan_json("--stack", "eks-dev") == json_plans["eks-dev"]


# --- the console script --------------------------------------------------------------------------------------------


def test_cli_imports_no_pulumi_until_a_plan_runs() -> None:
    code = (
        "import sys; from gpuready.cli import main; main.build_parser(); "
        "print(any(m == 'pulumi' or m.startswith('pulumi.') or m.startswith('pulumi_') for m in sys.modules))"
    )
    done = subprocess.run([PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_check_label_and_verify_load_no_config_model() -> None:
    """pydantic (the config model, ~150 ms to import) loads only where a stack's config is read."""
    code = (
        "import sys; import gpuready.plugins; "
        "from gpuready.cli import check_command, label_command, verify_command, main; "
        "main.build_parser(); print('pydantic' in sys.modules)"
    )
    done = subprocess.run([PYTHON, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


@pytest.mark.parametrize("args", [["--help"], ["plan", "--help"]], ids=["gpuready", "plan"])
def test_console_script_help(args: list[str]) -> None:
    done = subprocess.run([str(GPUREADY), *args], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: gpuready")
    if args[0] == "plan":
        for option in ("--stack", "--config", "--project-dir", "--stack-name", "--set", "--output", "--preview"):
            assert option in done.stdout


def test_console_script_plans_a_stack_as_json(json_plans: dict[str, dict[str, Any]]) -> None:
    done = subprocess.run(
        [str(GPUREADY), "plan", "--stack", "eks-dev", "-o", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json_plans["eks-dev"]


def test_console_script_exits_2_on_invalid_input() -> None:
    done = subprocess.run(
        [str(GPUREADY), "plan", "--stack", "eks-dev", "--set", "gpuready:cloud=gcp"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "gpuready:cloud: unknown cloud; got 'gcp'" in done.stderr


def test_a_program_without_a_stack_file_plans_with_empty_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The engine reads a missing Pulumi.<stack>.yaml as empty config; so does --program."""
    (tmp_path / "Pulumi.yaml").write_text("name: bare\nruntime: python\n", "utf-8")
    (tmp_path / "__main__.py").write_text(
        "import pulumi\n\npulumi.export('region', pulumi.Config('aws').get('region') or 'unset')\n", "utf-8"
    )
    result = plan_with_capsys(capsys, "--program", str(tmp_path), "--no-policy", "-o", "json")
    assert result.code == 0, result.err
    plan = json.loads(result.out)
    assert (plan["stack"], plan["outputs"]) == ("dev", {"region": "unset"})
    assert not (tmp_path / "Pulumi.dev.yaml").exists()


def test_a_mistyped_stack_of_this_project_is_still_refused(capsys: pytest.CaptureFixture[str]) -> None:
    result = plan_with_capsys(capsys, "--stack", "eks-dve")
    assert result.code == 2
    known = (
        "aks-dev, aks-dra-operator, aks-ib, aks-nap, aks-sku, eks-capacity, eks-dev, eks-dra, eks-efa, eks-karpenter, "
        "gke-compute-class, gke-dev, gke-operator"
    )
    assert f"known stacks: {known}" in result.err


def test_the_pool_table_shows_an_elastic_pool_and_its_lifecycle(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pools = [{"name": "l4-elastic", "instanceType": "g2-standard-8", "minSize": 0, "maxSize": 4,
              "provisioner": "compute-class"}]  # fmt: skip
    config = _gke_file(tmp_path, "Pulumi.elastic.yaml", ["us-central1-a"], pools)
    out = plan_with_capsys(capsys, "--config", str(config))
    _, rows = table_cells(out.out)
    assert rows["l4-elastic"]["INSTANCE"] == "g2-standard-8"
    assert rows["l4-elastic"]["TAINT"] == GPU_TAINT_TEXT
    assert "lifecycle l4-elastic: ComputeClass l4-elastic: GKE auto-creates node pools" in out.out
