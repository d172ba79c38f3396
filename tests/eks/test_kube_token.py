"""EKS tokens minted with botocore (``gpuready.eks.kube_token``, the EKS profile's ``exec_credentials``): the exec-block
parser, the token's shape, role assumption, and the auth flow through ``gpuready.kube``."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import botocore.session  # type: ignore[import-untyped]
import pytest
import yaml
from moto import mock_aws

from gpuready.cloud_credentials import recognise
from gpuready.eks.kube_token import EksExec, eks_token, parse_eks_exec
from gpuready.kube.errors import KubeConfigError
from gpuready.kube.kubeconfig import load_target
from gpuready.kube.nodes_api import client_for
from tests.kube_standin import KubeStandin

AWS = "/usr/local/bin/aws"

# fmt: off
EXEC_CASES = [
    ("aws-cli", AWS, ["--region", "us-west-2", "eks", "get-token", "--cluster-name", "ml", "--output", "json"], {},
     EksExec("ml", "us-west-2")),
    ("role-and-profile", "aws",
     ["eks", "get-token", "--cluster-name=ml", "--role-arn", "arn:aws:iam::123456789012:role/r", "--profile", "dev"],
     {"AWS_REGION": "eu-west-1"},
     EksExec("ml", "eu-west-1", "arn:aws:iam::123456789012:role/r", "dev", {"AWS_REGION": "eu-west-1"})),
    ("profile-from-env", "aws", ["eks", "get-token", "--cluster-id", "abc"], {"AWS_PROFILE": "p"},
     EksExec("abc", None, None, "p", {"AWS_PROFILE": "p"})),
    ("iam-authenticator", "aws-iam-authenticator", ["token", "-i", "ml", "-r", "arn:aws:iam::1:role/x"], {},
     EksExec("ml", None, "arn:aws:iam::1:role/x")),
    ("other-plugin", "gke-gcloud-auth-plugin", [], {}, None),
    ("aws-other-command", "aws", ["sts", "get-caller-identity"], {}, None),
    ("no-cluster", "aws", ["eks", "get-token"], {}, None),
]
# fmt: on


@pytest.mark.parametrize(
    ("command", "args", "env", "expected"), [c[1:] for c in EXEC_CASES], ids=[c[0] for c in EXEC_CASES]
)
def test_parse_eks_exec(command: str, args: list[str], env: dict[str, str], expected: EksExec | None) -> None:
    assert parse_eks_exec(command, args, env) == expected


def _decode(token: str) -> tuple[str, str, dict[str, list[str]]]:
    assert token.startswith("k8s-aws-v1.")
    body = token.removeprefix("k8s-aws-v1.")
    assert "=" not in body  # padding stripped, as the AWS CLI does
    url = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
    parts = urlsplit(url)
    return parts.netloc, parts.path, parse_qs(parts.query)


def _session(key: str = "AKIAIOSFODNN7EXAMPLE") -> object:
    session = botocore.session.Session()
    session.set_credentials(key, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    return session


def test_token_is_a_presigned_get_caller_identity_with_the_cluster_header() -> None:
    host, path, query = _decode(eks_token(EksExec("ml-dev", "eu-central-1"), session=_session()))
    assert (host, path) == ("sts.eu-central-1.amazonaws.com", "/")
    assert query["Action"] == ["GetCallerIdentity"]
    assert query["Version"] == ["2011-06-15"]
    assert query["X-Amz-Expires"] == ["60"]
    assert query["X-Amz-Algorithm"] == ["AWS4-HMAC-SHA256"]
    assert "x-k8s-aws-id" in query["X-Amz-SignedHeaders"][0].split(";")
    credential = query["X-Amz-Credential"][0].split("/")
    assert (credential[0], credential[2], credential[3]) == ("AKIAIOSFODNN7EXAMPLE", "eu-central-1", "sts")
    assert len(query["X-Amz-Signature"][0]) == 64


def test_token_signature_depends_on_the_cluster_name() -> None:
    session = _session()
    one = _decode(eks_token(EksExec("a", "us-east-1"), session=session))[2]["X-Amz-Signature"]
    other = _decode(eks_token(EksExec("b", "us-east-1"), session=session))[2]["X-Amz-Signature"]
    assert one != other


@pytest.fixture
def aws_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    with mock_aws():
        yield


@pytest.mark.usefixtures("aws_env")
def test_role_arn_is_assumed_first_with_moto_sts() -> None:
    spec = EksExec("ml", "us-west-2", "arn:aws:iam::123456789012:role/eks-admin")
    host, _, query = _decode(eks_token(spec, session=botocore.session.Session()))
    assert host == "sts.us-west-2.amazonaws.com"
    assert query["X-Amz-Security-Token"]  # temporary credentials from AssumeRole
    assert not query["X-Amz-Credential"][0].startswith("testing/")


def test_missing_region_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    with pytest.raises(KubeConfigError, match="no AWS region"):
        eks_token(EksExec("ml"), session=_session())


def _eks_kubeconfig(path: Path, server: str) -> Path:
    user = {"exec": {
        "apiVersion": "client.authentication.k8s.io/v1beta1", "command": "aws",
        "args": ["--region", "us-east-1", "eks", "get-token", "--cluster-name", "ml", "--output", "json"],
        "env": None, "interactiveMode": "IfAvailable", "provideClusterInfo": False,
    }}  # fmt: skip
    config = {
        "apiVersion": "v1", "kind": "Config", "current-context": "eks",
        "clusters": [{"name": "arn:aws:eks:us-east-1:1:cluster/ml", "cluster": {"server": server}}],
        "contexts": [{"name": "eks", "context": {"cluster": "arn:aws:eks:us-east-1:1:cluster/ml", "user": "eks-user"}}],
        "users": [{"name": "eks-user", "user": user}],
    }  # fmt: skip
    path.write_text(yaml.safe_dump(config))
    return path


def test_eks_kubeconfig_sends_a_botocore_token_without_running_aws(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDFIXED")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    monkeypatch.setenv("PATH", str(tmp_path))  # no aws binary anywhere
    with KubeStandin.start() as kube:
        path = str(_eks_kubeconfig(tmp_path / "kubeconfig", kube.url))
        target = load_target(path, None, env={}, credentials=recognise)
        assert target.in_process == EksExec("ml", "us-east-1")
        assert target.auth_kind() == "EKS token for cluster ml"
        with client_for(target) as client:
            client.list_nodes()
        authorization = kube.requests.records[-1].headers["authorization"]
    host, _, query = _decode(authorization.removeprefix("Bearer "))
    assert host == "sts.us-east-1.amazonaws.com"
    assert query["X-Amz-Credential"][0].startswith("AKIDFIXED/")


def test_eks_token_is_reminted_once_on_401(tmp_path: Path) -> None:
    from gpuready.eks.kube_token import EksTokenAuth  # noqa: PLC0415

    minted: list[str] = []

    def mint(_: EksExec) -> str:
        minted.append("stale" if not minted else "fresh")
        return minted[-1]

    with KubeStandin.start(token="fresh") as kube:
        target = load_target(str(kube.write_kubeconfig(tmp_path / "kubeconfig", token="unused")), None, env={})
        with client_for(target) as client:
            client.http.auth = EksTokenAuth(EksExec("ml", "us-east-1"), mint=mint)
            client.list_nodes()
            client.list_nodes()
        assert minted == ["stale", "fresh"]
        assert [r.status for r in kube.requests.records] == [401, 200, 200]
