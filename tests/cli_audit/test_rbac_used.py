"""What the commands ask of the API server is exactly what deploy/rbac grants and its README lists."""

from __future__ import annotations

import yaml

from tests.cli_audit.conftest import ROOT, Cli, seed_mixed_cluster
from tests.cli_audit.test_dra_audit import dra_node
from tests.kube_standin import KubeStandin
from tests.kube_standin.requestlog import RequestRecord

RBAC = ROOT / "deploy" / "rbac"


def granted(*files: str) -> set[tuple[str, str]]:
    rules = [r for name in files for d in yaml.safe_load_all((RBAC / name).read_text()) if d and d["kind"] ==
             "ClusterRole" for r in d["rules"]]  # fmt: skip
    return {(verb, resource) for r in rules for verb in r["verbs"] for resource in r["resources"]}


def verb_of(record: RequestRecord) -> tuple[str, str]:
    parts = [p for p in record.path.split("/") if p]
    rest = parts[2:] if parts[0] == "api" else parts[3:]
    resource = rest[0]
    if record.method == "PATCH":
        return "patch", resource
    if record.is_watch:
        return "watch", resource
    return ("get" if len(rest) > 1 else "list"), resource


def used(kube: KubeStandin) -> set[tuple[str, str]]:
    return {verb_of(r) for r in kube.requests}


def test_check_and_verify_use_only_what_check_yaml_grants(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    kube_standin.store.add(dra_node())
    gpuready("check")
    gpuready("verify", "-l", "kubernetes.io/hostname=cpu-1", "--timeout", "2")
    assert used(kube_standin) == granted("check.yaml")  # every grant is used, nothing else is asked


def test_label_uses_only_what_check_and_label_yaml_grant(kube_standin: KubeStandin, gpuready: Cli) -> None:
    seed_mixed_cluster(kube_standin)
    kube_standin.faults.conflict(1, path="/api/v1/nodes/eks-p5")  # the re-read after a conflict is a GET
    assert gpuready("label", "--yes").code == 0
    needed = used(kube_standin)
    assert needed <= granted("check.yaml", "label.yaml")
    assert needed - granted("check.yaml") == granted("label.yaml")


def test_the_readme_lists_every_verb_granted() -> None:
    readme = (RBAC / "README.md").read_text()
    for verb, resource in granted("check.yaml", "label.yaml"):
        assert f"`{verb}`" in readme and f"`{resource}" in readme, (verb, resource)
    assert ("get", "nodes") not in granted("check.yaml")  # the read-only role grants no unused `get nodes`
