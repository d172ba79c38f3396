"""deploy/rbac: valid Kubernetes 1.32 objects (strict schema) granting exactly what the commands use."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from gpuready.kube.errors import RBAC_HINT

RBAC = Path(__file__).resolve().parents[2] / "deploy" / "rbac"
SERVICE_ACCOUNT = {"kind": "ServiceAccount", "name": "gpuready", "namespace": "gpuready"}


def documents(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((RBAC / name).read_text()) if d is not None]


@pytest.mark.parametrize("name", ["check.yaml", "label.yaml"])
def test_every_object_validates_strictly_against_kubernetes_1_32(name: str) -> None:
    objects = documents(name)
    assert objects
    for obj in objects:
        kubernetes_validate.validate(obj, "1.32.0", strict=True)


def _rules(name: str) -> dict[str, list[dict[str, Any]]]:
    return {o["metadata"]["name"]: o["rules"] for o in documents(name) if o["kind"] == "ClusterRole"}


def test_check_grants_only_reading_nodes_and_resource_slices() -> None:
    assert _rules("check.yaml") == {
        "gpuready-check": [
            {"apiGroups": [""], "resources": ["nodes"], "verbs": ["list", "watch"]},
            {"apiGroups": ["resource.k8s.io"], "resources": ["resourceslices"], "verbs": ["list"]},
        ]
    }


def test_label_adds_only_patching_nodes_and_reading_one_again() -> None:
    assert _rules("label.yaml") == {
        "gpuready-label": [{"apiGroups": [""], "resources": ["nodes"], "verbs": ["get", "patch"]}]
    }


@pytest.mark.parametrize("name", ["check.yaml", "label.yaml"])
def test_bindings_point_at_their_role_and_the_service_account(name: str) -> None:
    roles = set(_rules(name))
    bindings = [o for o in documents(name) if o["kind"] == "ClusterRoleBinding"]
    assert [b["roleRef"]["name"] for b in bindings] == sorted(roles)
    assert all(b["subjects"] == [SERVICE_ACCOUNT] for b in bindings)
    defined = [(o["kind"], o["metadata"]["name"]) for o in documents("check.yaml")]
    assert ("ServiceAccount", "gpuready") in defined and ("Namespace", "gpuready") in defined


def test_error_hint_names_files_that_exist() -> None:
    for name in ("check.yaml", "label.yaml", "README.md"):
        assert f"deploy/rbac/{name}" in RBAC_HINT
        assert (RBAC / name).is_file()
    assert "kubectl auth can-i" in (RBAC / "README.md").read_text()


def test_smoke_grants_only_what_the_smoke_run_does_in_its_namespace() -> None:
    objects = documents("smoke.yaml")
    for obj in objects:
        kubernetes_validate.validate(obj, "1.32.0", strict=True)
    [role] = [o for o in objects if o["kind"] == "Role"]
    assert role["rules"] == [
        {"apiGroups": ["batch"], "resources": ["jobs"], "verbs": ["create", "get", "delete"]},
        {"apiGroups": [""], "resources": ["pods"], "verbs": ["list", "delete"]},
        {"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]},
        {"apiGroups": [""], "resources": ["services"], "verbs": ["create", "delete"]},  # the NCCL run's headless one
        {"apiGroups": ["resource.k8s.io"], "resources": ["resourceclaimtemplates"], "verbs": ["create", "delete"]},
    ]
    [binding] = [o for o in objects if o["kind"] == "RoleBinding"]
    assert binding["roleRef"]["name"] == role["metadata"]["name"] and binding["subjects"] == [SERVICE_ACCOUNT]
