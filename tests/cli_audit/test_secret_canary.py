"""The secret canary: a kubeconfig and a token carrying a unique marker go through every error path of ``plan``,
``check``, ``label``, ``verify`` and the verification resource; the marker never appears in any output."""

from __future__ import annotations

import traceback
import uuid
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
import yaml

from gpuready.cli.main import main
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import GpuReadyError
from gpuready.offline.project import OfflineProjectError, load_project
from gpuready.offline.pulumi_config import load_stack_config
from gpuready.verify_hook import GpuPoolVerificationProvider, PoolNotConvergedError
from tests.cli_audit.conftest import ROOT, STACK, seed_mixed_cluster
from tests.kube_standin import KubeStandin
from tests.verify_hook.conftest import pool_spec, props

MARKER = f"CANARY{uuid.uuid4().hex}"
"""The secret: a token, a key, kubeconfig content. It must never be printed."""


def run(*argv: str) -> str:
    """Run the CLI; everything it printed and its exit code, as one text."""
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    text = f"exit {code}\n{out.getvalue()}\n{err.getvalue()}"
    assert code != 0, text  # every case here is an error path
    assert "Traceback" not in text
    return text


def kubeconfig(kube: KubeStandin, user: dict[str, Any] | None = None) -> dict[str, Any]:
    document = kube.kubeconfig(token=MARKER)
    if user is not None:
        document["users"][0]["user"] = user
    return document


def write(path: Path, document: object) -> Path:
    path.write_text(document if isinstance(document, str) else yaml.safe_dump(document), encoding="utf-8")
    return path


def broken_yaml(kube: KubeStandin) -> str:
    """A kubeconfig whose YAML breaks on the line that holds the token."""
    text = yaml.safe_dump(kubeconfig(kube))
    return text.replace(f"token: {MARKER}", f"token: {MARKER}: [oops")


USERS: dict[str, Callable[[KubeStandin], Any]] = {
    "broken-yaml-on-the-token-line": broken_yaml,
    "token-of-the-wrong-type": lambda kube: kubeconfig(kube, {"token": {"value": MARKER}}),
    "client-key-that-is-not-base64": lambda kube: kubeconfig(
        kube, {"client-certificate-data": MARKER, "client-key-data": MARKER}
    ),
    "not-a-mapping": lambda _kube: f"- {MARKER}\n",
}
"""Kubeconfigs that cannot be used, each holding the marker where the credentials go."""

FAULTS: dict[str, Callable[[KubeStandin], object]] = {
    "401": lambda kube: kube.faults.fail(401, 10),
    "403": lambda kube: kube.faults.fail(403, 10, message='nodes is forbidden: User "x" cannot list'),
    "500": lambda kube: kube.faults.fail(500, 10),
    "truncated": lambda kube: kube.faults.malformed(10),
    "html": lambda kube: kube.faults.html_page(10),
    "retry-after-beyond-deadline": lambda kube: kube.faults.throttle(10, retry_after=3600),
    "patch-conflicts": lambda kube: kube.faults.conflict(100),
    "401-quoting-the-token": lambda kube: kube.faults.fail(401, 10, message=f"invalid bearer token {MARKER}"),
    "500-quoting-the-token": lambda kube: kube.faults.fail(500, 100, message=f"Authorization: Bearer {MARKER}"),
}
"""Server faults met with a kubeconfig whose token is the marker."""


@pytest.mark.parametrize("case", USERS, ids=list(USERS))
@pytest.mark.parametrize("command", ["check", "label", "verify"])
def test_an_unusable_kubeconfig_never_shows_its_secrets(
    kube_standin: KubeStandin, tmp_path: Path, case: str, command: str
) -> None:
    path = write(tmp_path / "kubeconfig", USERS[case](kube_standin))
    extra = ("--yes",) if command == "label" else ("-l", "a=b", "--timeout", "1") if command == "verify" else ()
    text = run(command, *extra, "--kubeconfig", str(path))
    assert MARKER not in text
    assert str(path) in text  # the error names the file


@pytest.mark.parametrize("fault", FAULTS, ids=list(FAULTS))
@pytest.mark.parametrize("command", ["check", "label", "verify"])
def test_server_errors_never_show_the_token(
    kube_standin: KubeStandin, tmp_path: Path, fault: str, command: str
) -> None:
    seed_mixed_cluster(kube_standin)
    path = write(tmp_path / "kubeconfig", kubeconfig(kube_standin))
    FAULTS[fault](kube_standin)
    extra = ("--yes",) if command == "label" else ("-l", "a=b") if command == "verify" else ()
    out, err = StringIO(), StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        main([command, *extra, "--timeout", "1", "--kubeconfig", str(path)])
    text = out.getvalue() + err.getvalue()
    assert "Traceback" not in text
    assert MARKER not in text
    assert kube_standin.requests.records[0].headers.get("authorization") == f"Bearer {MARKER}"  # it was used


def stack_with_kubeconfig(value: str) -> str:
    return STACK + f"  gpuready:kubeconfig: {value}\n"


@pytest.fixture
def canary_stacks(tmp_path: Path) -> dict[str, Path]:
    """Stack files whose ``gpuready:kubeconfig`` carries the marker in the ways users get it wrong."""
    (tmp_path / "stacks").mkdir()
    (tmp_path / "Pulumi.yaml").write_text((ROOT / "Pulumi.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    texts = {
        "mapping-without-a-pipe": STACK + f"  gpuready:kubeconfig:\n    users:\n    - user: {{token: {MARKER}}}\n",
        "plain-text-content": STACK + f"  gpuready:kubeconfig: |\n    users:\n    - user: {{token: {MARKER}}}\n",
        "broken-yaml": STACK + f"  gpuready:kubeconfig: {MARKER}: [oops\n",
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = tmp_path / "stacks" / f"Pulumi.{name}.yaml"
        paths[name].write_text(text, encoding="utf-8")
    return paths


@pytest.mark.parametrize("case", ["mapping-without-a-pipe", "plain-text-content", "broken-yaml"])
def test_plan_never_shows_a_kubeconfig_from_the_stack_file(canary_stacks: dict[str, Path], case: str) -> None:
    text = run("plan", "--config", str(canary_stacks[case]), "--project-dir", str(ROOT))
    assert MARKER not in text
    assert "kubeconfig" in text or "line 1" in text


@pytest.mark.parametrize("case", ["mapping-without-a-pipe", "broken-yaml"])
def test_verify_never_shows_a_kubeconfig_from_the_stack_file(canary_stacks: dict[str, Path], case: str) -> None:
    project = canary_stacks[case].parents[1]
    text = run("verify", "--stack", case, "--project-dir", str(project), "--timeout", "1")
    assert MARKER not in text


def test_the_mapping_error_says_how_to_pass_the_kubeconfig() -> None:
    base = {
        "cloud": "eks",
        "clusterName": "c",
        "eksNodeRoleArn": "arn:aws:iam::123456789012:role/n",
        "eksSubnetIds": ["subnet-0a1b2c3d"],
        "gpuStack": "external",
    }
    pools = "- {name: gpu, instanceType: g6.xlarge, minSize: 0, maxSize: 1}"
    with pytest.raises(GpuReadyError) as raised:
        parse_stack_settings({**base, "nodePools": pools, "kubeconfig": {"users": [{"token": MARKER}]}})
    assert MARKER not in str(raised.value)
    assert "must be a string; got a mapping" in str(raised.value)
    assert "pulumi config set --secret gpuready:kubeconfig" in str(raised.value)
    with pytest.raises(GpuReadyError) as plain:
        parse_stack_settings({**base, "nodePools": pools, "kubeconfig": f"users:\n- {MARKER}\n"}, secret_keys=())
    assert MARKER not in str(plain.value) and "in plain text" in str(plain.value)
    secret = parse_stack_settings({**base, "nodePools": pools, "kubeconfig": "a\nb"}, secret_keys={"kubeconfig"})
    assert secret.kubeconfig == "a\nb"


@pytest.mark.parametrize("case", [*USERS, *FAULTS])
def test_the_verification_resource_never_shows_its_kubeconfig(kube_standin: KubeStandin, case: str) -> None:
    if case in USERS:
        made = USERS[case](kube_standin)
        content = made if isinstance(made, str) else yaml.safe_dump(made)
    else:
        content = yaml.safe_dump(kubeconfig(kube_standin))
        FAULTS[case](kube_standin)
    with pytest.raises(PoolNotConvergedError) as raised:
        GpuPoolVerificationProvider().create(props(pool_spec(), content, timeout=1))
    # The engine prints the provider's whole traceback (pulumi/dynamic/__main__.py: traceback.format_exc()).
    printed = "".join(traceback.format_exception(raised.value))
    assert MARKER not in printed
    assert "direct cause" not in printed  # no chained exception whose message could carry it


def test_why_pulumi_yaml_cannot_declare_the_optional_kubeconfig_secret(tmp_path: Path) -> None:
    """The engine checks a secret key's default too (config.go ``mergeConfig``), as the offline mirror does: with
    ``secret: true`` every stack that sets no kubeconfig would fail. So gpuready refuses plain content itself."""
    declared = (ROOT / "Pulumi.yaml").read_text(encoding="utf-8")
    assert '  kubeconfig:\n    type: string\n    default: ""\n' in declared
    secret = declared.replace(
        "  kubeconfig:\n    type: string\n", "  kubeconfig:\n    type: string\n    secret: true\n"
    )
    (tmp_path / "Pulumi.yaml").write_text(secret, encoding="utf-8")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.test.yaml").write_text(STACK, encoding="utf-8")
    with pytest.raises(OfflineProjectError, match="'kubeconfig' must be encrypted as it's secret"):
        load_stack_config(load_project(tmp_path), "test")


def test_a_password_in_the_server_url_is_never_printed(kube_standin: KubeStandin, tmp_path: Path) -> None:
    document = kubeconfig(kube_standin)
    document["clusters"][0]["cluster"]["server"] = kube_standin.url.replace("://", f"://admin:{MARKER}@")
    path = write(tmp_path / "kubeconfig", document)
    kube_standin.faults.fail(500, 100)
    text = run("check", "--timeout", "20", "--kubeconfig", str(path))
    assert MARKER not in text  # was printed in "gave up after 5 attempts on http://admin:...@127.0.0.1"
    assert "gave up after 5 attempts on http://***@127.0.0.1" in text


@pytest.mark.parametrize("command", ["check", "label", "verify"])
def test_a_credential_plugins_stderr_never_shows_a_token(
    kube_standin: KubeStandin, tmp_path: Path, command: str
) -> None:
    plugin = tmp_path / "plugin"
    plugin.write_text(f"#!/bin/sh\necho 'refreshing failed: token={MARKER}' >&2\necho 'Bearer {MARKER}' >&2\nexit 1\n")
    plugin.chmod(0o755)
    user = {"exec": {"apiVersion": "client.authentication.k8s.io/v1beta1", "command": str(plugin)}}
    path = write(tmp_path / "kubeconfig", kubeconfig(kube_standin, user))
    extra = ("--yes",) if command == "label" else ("-l", "a=b") if command == "verify" else ()
    text = run(command, *extra, "--timeout", "2", "--kubeconfig", str(path))
    assert MARKER not in text
    assert "refreshing failed: token=<redacted>" in text
