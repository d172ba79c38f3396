"""The golden cases: each runs ``gpuready`` in-process and returns what it printed, as plain data.

Audit cases (``check``, ``label --dry-run``, ``verify``) run against the Kubernetes API stand-in seeded with
``node_sets``; plan cases run ``gpuready plan ... -o json`` on the example stacks and example programs (the
policy gate included, so the violations are pinned too). ``verify-watch`` lands a fixed sequence of changes
while ``verify`` watches, so every event goes through the incremental audit.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

from gpuready.cli.main import main
from gpuready.cli.verify_stack import stack_expectations
from tests.golden import health_nodes, node_sets
from tests.golden.diff_cases import DIFF_CASES
from tests.kube_standin import KubeStandin

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
Obj = dict[str, Any]
Case = Callable[[], Obj]


def run_cli(argv: Sequence[str], *, json_out: bool) -> Obj:
    """``gpuready argv`` in-process: exit code, stdout (parsed when JSON) and stderr lines."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    stdout: object = json.loads(out.getvalue()) if json_out and out.getvalue().strip() else out.getvalue().splitlines()
    return {"argv": list(argv), "code": code, "stdout": stdout, "stderr": err.getvalue().splitlines()}


def _expectations() -> dict[str, Any]:
    return stack_expectations("eks-dev", str(ROOT))


SIZES = (
    ("minSize: 0\n      maxSize: 2", "minSize: 4\n      maxSize: 5"),  # h100-mig: 4 nodes expected
    ("minSize: 0\n      maxSize: 3", "minSize: 4\n      maxSize: 5"),
)  # a10g-br: 4 expected, 3 present
"""The eks-dev stack with pools that expect more nodes than have joined, for the pool findings."""


def sized_project(tmp: Path) -> Path:
    """A project dir with the real Pulumi.yaml and stack ``golden``: eks-dev with ``SIZES`` applied."""
    text = (ROOT / "stacks" / "Pulumi.eks-dev.yaml").read_text()
    for old, new in SIZES:
        assert old in text, f"stacks/Pulumi.eks-dev.yaml changed: {old!r} not found"
        text = text.replace(old, new)
    shutil.copy(ROOT / "Pulumi.yaml", tmp / "Pulumi.yaml")
    (tmp / "stacks").mkdir()
    (tmp / "stacks" / "Pulumi.golden.yaml").write_text(text)
    return tmp


def _cluster() -> list[Obj]:
    return [*node_sets.stack_nodes(_expectations()), *node_sets.foreign_nodes()]


def _against(nodes: list[Obj], argv: Sequence[str], *, json_out: bool) -> Obj:
    with KubeStandin.start(seed=nodes) as kube, tempfile.TemporaryDirectory() as tmp:
        kubeconfig = kube.write_kubeconfig(Path(tmp) / "kubeconfig")
        result = run_cli([*argv, "--kubeconfig", str(kubeconfig)], json_out=json_out)
    result["argv"] = [a.replace(tmp, "<tmp>") for a in result["argv"]]
    return result


def _health_cluster() -> list[Obj]:
    return health_nodes.health_nodes(_expectations())


def _audit_case(argv: Sequence[str], *, json_out: bool, nodes: Callable[[], list[Obj]] = _cluster) -> Case:
    return lambda: _against(nodes(), argv, json_out=json_out)


VERIFY = ("verify", "--stack", "eks-dev", "--project-dir", str(ROOT))
ONCE = "1"
"""``--timeout`` for cases that never converge: one LIST, then a watch with no news until the deadline (a zero
timeout is a deadline already passed, which lists nothing)."""


def verify_missing() -> Obj:
    """``verify`` of pools that expect more nodes than have joined (one LIST, then no news until the deadline)."""
    with tempfile.TemporaryDirectory() as tmp:
        project = sized_project(Path(tmp))
        argv = ["verify", "--stack", "golden", "--project-dir", str(project), "--timeout", ONCE, "-o", "json"]
        result = _against(_cluster(), argv, json_out=True)
    result["argv"] = [a.replace(str(project), "<project>") for a in result["argv"]]
    return result


def verify_watch() -> Obj:
    """``verify`` while a fixed sequence of changes lands: fixes, deletions (a pool falls short), late nodes."""
    expectations = _expectations()
    nodes = {n["metadata"]["name"]: n for n in node_sets.stack_nodes(expectations)}
    types = {"l4-shared": "g6.12xlarge", "h100-mig": "p5.48xlarge", "a10g-br": "g5.2xlarge"}
    steps: list[tuple[str, str, Obj]] = []  # (verb, node name, the node or the labels)
    for name, node in sorted(nodes.items()):
        pool = node["metadata"]["labels"]["gpuready.io/pool"]
        if name in ("h100-mig-failed", "l4-wrong-gpu"):
            steps.append(("delete", name, {}))
        elif not name.endswith("-ok") and not name.startswith("l4-ok"):
            steps.append(("put", name, node_sets.pool_node(expectations[pool], name, types[pool])))
    steps.insert(3, ("label", "l4-ok-1", {"example.com/noise": "1"}))
    steps.append(("put", "a10g-late", node_sets.pool_node(expectations["a10g-br"], "a10g-late", types["a10g-br"])))
    steps.append(("put", "h100-late", node_sets.pool_node(expectations["h100-mig"], "h100-late", types["h100-mig"])))
    with KubeStandin.start(seed=list(nodes.values())) as kube, tempfile.TemporaryDirectory() as tmp:
        kubeconfig = kube.write_kubeconfig(Path(tmp) / "kubeconfig")
        project = sized_project(Path(tmp))

        def land() -> None:
            deadline = time.monotonic() + 10
            while not kube.requests.find("GET", "/api/v1/nodes", watch=True) and time.monotonic() < deadline:
                time.sleep(0.01)
            for verb, name, value in steps:
                if verb == "delete":
                    kube.store.delete("Node", name)
                elif verb == "label":
                    kube.store.label("Node", name, value)
                else:
                    kube.store.put(value)

        thread = threading.Thread(target=land)
        thread.start()
        try:
            argv = ["verify", "--stack", "golden", "--project-dir", str(project), "--timeout", "30", "-o", "json"]
            result = run_cli([*argv, "--kubeconfig", str(kubeconfig)], json_out=True)
        finally:
            thread.join()
    result["argv"] = [a.replace(tmp, "<tmp>") for a in result["argv"]]
    return result


def _plan(*argv: str) -> Case:
    return lambda: run_cli(["plan", *argv, "-o", "json"], json_out=True)


CASES: dict[str, Case] = {
    "check-json": _audit_case(["check", "-o", "json"], json_out=True),
    "check-table": _audit_case(["check", "--strict"], json_out=False),
    "check-selected": _audit_case(["check", "-l", "gpuready.io/pool in (h100-mig,gone)", "-o", "json"], json_out=True),
    "label-dry-run": _audit_case(["label", "--dry-run"], json_out=False),
    "verify-stack-json": _audit_case([*VERIFY, "--timeout", ONCE, "-o", "json"], json_out=True),
    "verify-stack-table": _audit_case([*VERIFY, "--timeout", ONCE], json_out=False),
    "verify-selector-json": _audit_case(
        ["verify", "-l", "nvidia.com/gpu.present=true", "--timeout", ONCE, "-o", "json"], json_out=True
    ),
    "verify-missing": verify_missing,
    "check-health-json": _audit_case(["check", "-o", "json"], json_out=True, nodes=_health_cluster),
    "check-health-table": _audit_case(["check"], json_out=False, nodes=_health_cluster),
    "verify-health-json": _audit_case([*VERIFY, "--timeout", ONCE, "-o", "json"], json_out=True, nodes=_health_cluster),
    "verify-watch": verify_watch,
    "plan-eks-dev": _plan("--stack", "eks-dev", "--project-dir", str(ROOT)),
    "plan-aks-dev": _plan("--stack", "aks-dev", "--project-dir", str(ROOT)),
    "plan-gke-dev": _plan("--stack", "gke-dev", "--project-dir", str(ROOT)),
    "plan-gke-operator": _plan("--stack", "gke-operator", "--project-dir", str(ROOT)),
    "plan-eks-karpenter": _plan("--stack", "eks-karpenter", "--project-dir", str(ROOT)),
    "plan-gke-compute-class": _plan("--stack", "gke-compute-class", "--project-dir", str(ROOT)),
    "plan-aks-nap": _plan("--stack", "aks-nap", "--project-dir", str(ROOT)),
    "plan-eks-dra": _plan("--stack", "eks-dra", "--project-dir", str(ROOT)),
    "plan-aks-dra-operator": _plan("--stack", "aks-dra-operator", "--project-dir", str(ROOT)),
    "plan-aks-sku": _plan("--stack", "aks-sku", "--project-dir", str(ROOT)),
    "plan-gke-tcpxo": _plan("--stack", "gke-tcpxo", "--project-dir", str(ROOT)),
    "plan-aks-ib": _plan("--stack", "aks-ib", "--project-dir", str(ROOT)),
    "plan-eks-efa": _plan("--stack", "eks-efa", "--project-dir", str(ROOT)),
    "plan-gke-queued": _plan("--stack", "gke-queued", "--project-dir", str(ROOT)),
    "plan-eks-capacity": _plan("--stack", "eks-capacity", "--project-dir", str(ROOT)),
    "plan-training-job": _plan("--program", str(ROOT / "examples" / "training_job"), "--stack", "dev"),
    "plan-wrong-program": _plan("--program", str(ROOT / "examples" / "wrong_program"), "--stack", "dev"),
}

CASES.update(DIFF_CASES)


def path_of(name: str) -> Path:
    return DATA / f"{name}.json"


def canonical(result: Obj) -> str:
    """The stored text: sorted keys, one value per line, absolute paths of this checkout made relative."""
    text = json.dumps(result, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return text.replace(str(ROOT), "<root>")
