"""Kubeconfig and context selection, as kubectl does it: --kubeconfig, KUBECONFIG (merged), ~/.kube/config."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.kube.errors import KubeConfigError
from gpuready.kube.kubeconfig import kubeconfig_paths, load_target, merge_kubeconfigs
from gpuready.kube.nodes_api import connect
from tests.kube_standin import KubeStandin, make_node


def _config(current: str | None, *entries: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    """A kubeconfig with one (context, server, user) triple per entry; cluster and user named after the context."""
    return {
        "apiVersion": "v1",
        "kind": "Config",
        "current-context": current,
        "clusters": [{"name": name, "cluster": {"server": server}} for name, server, _ in entries],
        "contexts": [{"name": name, "context": {"cluster": name, "user": name}} for name, _, _ in entries],
        "users": [{"name": name, "user": user} for name, _, user in entries],
    }


def _write(path: Path, document: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(document))
    return path


def test_explicit_kubeconfig_must_exist(tmp_path: Path) -> None:
    with pytest.raises(KubeConfigError, match="--kubeconfig: file not found"):
        kubeconfig_paths(str(tmp_path / "nope"), {}, tmp_path)


def test_kubeconfig_env_lists_several_files_and_skips_missing_ones(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.yaml", _config("a", ("a", "https://a", {"token": "ta"})))
    b = _write(tmp_path / "b.yaml", _config("b", ("b", "https://b", {"token": "tb"})))
    listed = os.pathsep.join([str(a), str(tmp_path / "missing"), str(b), str(a)])
    assert kubeconfig_paths(None, {"KUBECONFIG": listed}, tmp_path) == [a, b]
    with pytest.raises(KubeConfigError, match="KUBECONFIG: none of its files exist"):
        kubeconfig_paths(None, {"KUBECONFIG": str(tmp_path / "missing")}, tmp_path)


def test_default_is_home_kube_config(tmp_path: Path) -> None:
    with pytest.raises(KubeConfigError, match=r"\.kube/config does not exist"):
        kubeconfig_paths(None, {}, tmp_path)
    default = _write(tmp_path / ".kube" / "config", _config("d", ("d", "https://d", {})))
    assert kubeconfig_paths(None, {"KUBECONFIG": ""}, tmp_path) == [default]


def test_merge_first_file_wins_for_names_and_current_context(tmp_path: Path) -> None:
    first = _config(None, ("shared", "https://first", {"token": "1"}), ("one", "https://one", {}))
    second = _config("shared", ("shared", "https://second", {"token": "2"}), ("two", "https://two", {}))
    merged = merge_kubeconfigs([(tmp_path / "1", first), (tmp_path / "2", second)])
    assert merged["current-context"] == "shared"  # the first file has none; the second's is used
    assert [c["name"] for c in merged["clusters"]] == ["shared", "one", "two"]
    assert merged["clusters"][0]["cluster"]["server"] == "https://first"
    assert merged["users"][0]["user"]["token"] == "1"


def test_relative_paths_resolve_against_their_own_file(tmp_path: Path) -> None:
    document = _config("c", ("c", "https://c", {"client-certificate": "certs/me.crt", "tokenFile": "/abs/token"}))
    document["clusters"][0]["cluster"]["certificate-authority"] = "ca.crt"
    merged = merge_kubeconfigs([(tmp_path / "sub" / "config", document)])
    assert merged["clusters"][0]["cluster"]["certificate-authority"] == str(tmp_path / "sub" / "ca.crt")
    assert merged["users"][0]["user"]["client-certificate"] == str(tmp_path / "sub" / "certs" / "me.crt")
    assert merged["users"][0]["user"]["tokenFile"] == "/abs/token"


def test_context_selection(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "config",
        _config(
            "dev", ("dev", "https://dev", {"token": "d"}), ("prod", "https://prod", {"client-certificate-data": "eA=="})
        ),
    )
    assert load_target(str(path), None, env={}).server == "https://dev"
    prod = load_target(str(path), "prod", env={})
    assert (prod.context, prod.server, prod.auth_kind()) == ("prod", "https://prod", "client certificate")
    with pytest.raises(KubeConfigError, match=r"--context: unknown context; got 'staging'. Known: dev, prod"):
        load_target(str(path), "staging", env={})


def test_no_current_context_asks_for_one(tmp_path: Path) -> None:
    path = _write(tmp_path / "config", _config(None, ("x", "https://x", {})))
    with pytest.raises(KubeConfigError, match=r"no current-context; pass --context\. Known: x"):
        load_target(str(path), None, env={})


def test_context_without_user_is_anonymous(tmp_path: Path) -> None:
    document = _config("anon", ("anon", "https://anon", {}))
    del document["contexts"][0]["context"]["user"]
    target = load_target(str(_write(tmp_path / "config", document)), None, env={})
    assert (target.user_name, target.auth_kind()) == ("", "no credentials")


def test_kubeconfig_env_picks_the_context_across_files_over_real_http(tmp_path: Path) -> None:
    with KubeStandin.start(seed=[make_node("on-a")]) as a, KubeStandin.start(seed=[make_node("on-b")]) as b:
        first = _write(tmp_path / "a.yaml", _config("a", ("a", a.url, {"token": "t"})))
        second = _write(tmp_path / "b.yaml", _config("b", ("b", b.url, {"token": "t"})))
        env = {"KUBECONFIG": os.pathsep.join([str(first), str(second)]), "HOME": str(tmp_path)}
        names = {}
        for context in (None, "b"):
            with connect(None, context, env=env) as client:
                names[context] = [n["metadata"]["name"] for n in client.list_nodes().items]
        assert names == {None: ["on-a"], "b": ["on-b"]}
        # --kubeconfig overrides KUBECONFIG entirely
        with connect(str(second), None, env=env) as client:
            assert [n["metadata"]["name"] for n in client.list_nodes().items] == ["on-b"]


def _exec_kubeconfig(path: Path, server: str, plugin: Path) -> Path:
    user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1beta1", "command": str(plugin), "args": ["--x"]}}
    return _write(path, _config("plugin", ("plugin", server, user)))


def test_other_exec_plugins_run_as_kubectl_runs_them(tmp_path: Path) -> None:
    plugin = tmp_path / "token-plugin"
    plugin.write_text(
        "#!/bin/sh\n"
        'echo \'{"apiVersion": "client.authentication.k8s.io/v1beta1", "kind": "ExecCredential", '
        '"status": {"token": "from-plugin"}}\'\n'
    )
    plugin.chmod(0o755)
    with KubeStandin.start(token="from-plugin", seed=[make_node("n1")]) as kube:
        config = _exec_kubeconfig(tmp_path / "config", kube.url, plugin)
        target = load_target(str(config), None, env={})
        assert target.in_process is None and target.auth_kind() == f"exec plugin {plugin}"
        with connect(str(config), None, env={}) as client:
            assert [n["metadata"]["name"] for n in client.list_nodes().items] == ["n1"]
        assert kube.requests.records[-1].headers["authorization"] == "Bearer from-plugin"


def test_a_failing_exec_plugin_is_a_config_error(tmp_path: Path) -> None:
    plugin = tmp_path / "broken-plugin"
    plugin.write_text("#!/bin/sh\necho 'not logged in' >&2\nexit 1\n")
    plugin.chmod(0o755)
    with KubeStandin.start() as kube:
        config = _exec_kubeconfig(tmp_path / "config", kube.url, plugin)
        with connect(str(config), None, env={}) as client, pytest.raises(KubeConfigError, match="not logged in"):
            client.list_nodes()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("users:\n- name: u\n  user:\n    token: SECRET-TOKEN: [\n", r"not valid YAML: line 4, column 24: "),
        ("users:\n- name: u\n  user: {token: SECRET-TOKEN\n", r"not valid YAML: line 4, column 1: "),
        ("- SECRET-TOKEN\n", r"not a kubeconfig \(expected a mapping, got list\)"),
        (
            "users:\n- name: u\n  user: {token: [SECRET-TOKEN]}\ncontexts: [{name: c, context: {user: u}}]\n"
            "current-context: c\n",
            r"context 'c' is unusable: a field has the wrong type",
        ),
    ],
    ids=["bad-yaml-on-the-token-line", "unclosed-flow-mapping", "not-a-mapping", "token-not-a-string"],
)
def test_kubeconfig_errors_name_the_file_and_line_never_the_text(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "kubeconfig"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(KubeConfigError, match=message) as raised:
        load_target(str(path), env={})
    assert str(raised.value).startswith(f"{path}: ")
    assert "SECRET-TOKEN" not in str(raised.value)
    assert raised.value.__cause__ is None or "SECRET-TOKEN" not in str(raised.value.__cause__)
