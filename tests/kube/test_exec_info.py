"""``provideClusterInfo`` and ``installHint`` of a kubeconfig's exec plugin, as client-go honours them
(kubernetes/kubernetes @cb6ff2d8 ``staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go`` L424-425:
``spec.cluster`` only when ``provideClusterInfo``; L521-534: a missing executable is named with the install hint;
``rest/exec.go`` ``ConfigToExecCluster`` L31-60: the cluster's fields)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import KubeConfigError
from gpuready.kube.exec_info import exec_cluster
from gpuready.kube.exec_plugin import run_plugin
from gpuready.kube.kubeconfig import load_target
from gpuready.kube.nodes_api import connect
from tests.kube.test_exec_plugin import SECRET, V1, credential, plugin
from tests.kube_standin import KubeStandin, make_node

EXTENSION = {"name": "client.authentication.k8s.io/exec", "extension": {"audience": "gpuready", "region": "eu-1"}}


def _kubeconfig(kube: KubeStandin, tmp_path: Path, exec_config: dict[str, Any], **cluster: Any) -> Path:
    document = kube.kubeconfig()
    document["clusters"][0]["cluster"].update(cluster)
    document["users"][0]["user"] = {"exec": {"apiVersion": V1, **exec_config}}
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps(document))
    return path


@pytest.mark.parametrize("provide", [True, False, None])
def test_the_plugin_gets_the_cluster_only_when_provide_cluster_info_is_set(
    tmp_path: Path, provide: bool | None
) -> None:
    seen = tmp_path / "exec-info.json"
    body = f"echo \"$KUBERNETES_EXEC_INFO\" > {seen}; echo '{credential({'token': 'from-plugin'}, V1).decode()}'"
    exec_config: dict[str, Any] = {"command": str(plugin(tmp_path, body))}
    if provide is not None:
        exec_config["provideClusterInfo"] = provide
    with KubeStandin.start(token="from-plugin", seed=[make_node("n1")]) as kube:
        config = _kubeconfig(kube, tmp_path, exec_config, extensions=[EXTENSION], **{"tls-server-name": "api.ml"})
        with connect(str(config), None, env={}) as client:
            assert [n["metadata"]["name"] for n in client.list_nodes().items] == ["n1"]
        server = kube.url
    spec = json.loads(seen.read_text())["spec"]
    if provide:  # before: spec.cluster was never sent
        assert spec == {
            "interactive": False,
            "cluster": {"server": server, "tls-server-name": "api.ml", "config": EXTENSION["extension"]},
        }
    else:
        assert spec == {"interactive": False}


def test_the_cluster_info_carries_the_ca_inline_or_read_from_its_file(tmp_path: Path) -> None:
    pem = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
    (tmp_path / "ca.pem").write_bytes(pem)
    from_file = exec_cluster({"server": "https://k", "certificate-authority": str(tmp_path / "ca.pem")}, "kc")
    assert base64.b64decode(from_file["certificate-authority-data"]) == pem
    inline = base64.b64encode(pem).decode()
    both = {"server": "https://k", "certificate-authority-data": inline, "proxy-url": "http://proxy:3128"}
    assert exec_cluster({**both, "insecure-skip-tls-verify": True}, "kc") == {
        **both,
        "insecure-skip-tls-verify": True,
    }
    with pytest.raises(KubeConfigError, match=r"kc: certificate-authority .*missing\.pem cannot be read"):
        exec_cluster({"server": "https://k", "certificate-authority": str(tmp_path / "missing.pem")}, "kc")


def test_a_relative_ca_file_is_read_against_the_kubeconfig(tmp_path: Path) -> None:
    (tmp_path / "ca.pem").write_bytes(b"CA")
    config = tmp_path / "kubeconfig"
    config.write_text(json.dumps({
        "clusters": [{"name": "c", "cluster": {"server": "https://k", "certificate-authority": "ca.pem"}}],
        "users": [{"name": "u", "user": {"exec": {"apiVersion": V1, "command": "p", "provideClusterInfo": True}}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "x",
    }))  # fmt: skip
    target = load_target(str(config), None, env={})
    assert target.exec_cluster == {
        "server": "https://k",
        "certificate-authority-data": base64.b64encode(b"CA").decode(),
    }


@pytest.mark.parametrize(
    ("hint", "shown"),
    [
        ("Install gke-gcloud-auth-plugin: https://cloud.google.com/kubernetes-engine", "installHint says: Install gke"),
        (f"run: login --token={SECRET}", "installHint says: run: login --token=<redacted>"),
        ("", "install it or fix the exec command"),
    ],
)
def test_a_missing_plugin_is_named_with_its_install_hint(tmp_path: Path, hint: str, shown: str) -> None:
    with pytest.raises(KubeConfigError) as raised:
        run_plugin([str(tmp_path / "gke-gcloud-auth-plugin")], {}, Deadline(5), hint)
    message = str(raised.value)
    assert "gke-gcloud-auth-plugin: executable not found" in message  # was "cannot run it: No such file..."
    assert shown in message and SECRET not in message


def test_the_install_hint_reaches_the_command_error(tmp_path: Path) -> None:
    with KubeStandin.start(token="t") as kube:
        exec_config = {"command": str(tmp_path / "absent-plugin"), "installHint": "brew install absent-plugin"}
        config = _kubeconfig(kube, tmp_path, exec_config)
        with (
            pytest.raises(KubeConfigError, match="installHint says: brew install absent-plugin"),
            connect(str(config), None, env={}) as client,
        ):
            client.list_nodes()
