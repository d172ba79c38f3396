"""Credential exec plugins as untrusted input: run within the deadline, output bounded and parsed with clear errors,
client certificates supported, stderr cut and scrubbed."""

from __future__ import annotations

import datetime
import json
import ssl
import time
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from lightkube.config.models import UserExec

from gpuready.kube.deadline import Deadline
from gpuready.kube.errors import DeadlineError, KubeConfigError
from gpuready.kube.exec_plugin import MAX_STDERR, ExecCredentialAuth, parse_credential, run_plugin
from gpuready.kube.nodes_api import connect
from tests.kube_standin import KubeStandin, make_node

V1 = "client.authentication.k8s.io/v1"
V1BETA1 = "client.authentication.k8s.io/v1beta1"
SECRET = "s3cr3t-CANARY-0123456789abcdef0123456789abcdef"


def plugin(tmp_path: Path, body: str, name: str = "plugin") -> Path:
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return path


def exec_kubeconfig(kube: KubeStandin, tmp_path: Path, command: Path, api_version: str = V1BETA1) -> Path:
    document = kube.kubeconfig()
    document["users"][0]["user"] = {"exec": {"apiVersion": api_version, "command": str(command)}}
    path = tmp_path / "kubeconfig"
    path.write_text(json.dumps(document))
    return path


def credential(status: object, api_version: str = V1BETA1, kind: str = "ExecCredential") -> bytes:
    return json.dumps({"apiVersion": api_version, "kind": kind, "status": status}).encode()


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (b"Please log in at https://login.example.com", "its output is not JSON (42 bytes)"),
        (b"\xff\xfe not utf-8", "its output is not JSON"),
        (b"[]", "not an ExecCredential"),
        (credential({"token": SECRET}, kind="Secret"), "not an ExecCredential"),
        (credential({"token": SECRET}, api_version=V1), "it answered apiVersion 'client.authentication.k8s.io/v1', "),
        (credential({}), "has no status.token and no client certificate"),
        (credential("a string"), "has no status.token and no client certificate"),
        (credential({"clientCertificateData": SECRET}), "only one of clientCertificateData and clientKeyData"),
    ],
    ids=["text", "binary", "list", "wrong-kind", "wrong-version", "no-status", "status-not-object", "cert-no-key"],
)
def test_unusable_plugin_output_is_a_clear_error_that_shows_nothing_of_it(output: bytes, message: str) -> None:
    with pytest.raises(KubeConfigError) as raised:
        parse_credential(output, V1BETA1, "my-plugin")
    assert message in str(raised.value)
    assert SECRET not in str(raised.value)
    assert str(raised.value).startswith("exec plugin my-plugin: ")


def test_a_token_and_its_expiry_are_read() -> None:
    parsed = parse_credential(credential({"token": "t", "expirationTimestamp": "2030-01-01T00:00:00Z"}), V1BETA1, "p")
    assert parsed.token == "t" and parsed.expires == datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC).timestamp()


def _certificate_pair() -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gpuready-test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )  # fmt: skip
    pem_key = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())  # fmt: skip
    return cert.public_bytes(serialization.Encoding.PEM).decode(), pem_key.decode()


def test_a_certificate_only_credential_is_loaded_into_the_tls_context(tmp_path: Path) -> None:
    cert, key = _certificate_pair()
    output = tmp_path / "credential.json"
    output.write_text(credential({"clientCertificateData": cert, "clientKeyData": key}, V1).decode())
    tls = ssl.create_default_context()
    loaded: list[tuple[str, str]] = []
    original = tls.load_cert_chain

    def spy(certfile: str, keyfile: str | None = None) -> None:
        original(certfile, keyfile)
        loaded.append((Path(certfile).read_text(), str(keyfile)))

    tls.load_cert_chain = spy  # type: ignore[method-assign,assignment]
    auth = ExecCredentialAuth(UserExec(apiVersion=V1, command=str(plugin(tmp_path, f"cat {output}"))), tls)
    found = auth.credential()  # was a KeyError traceback: lightkube reads status.token only
    assert found.certificate == cert and not found.token
    assert loaded and loaded[0][0] == cert
    assert not Path(loaded[0][1]).exists()  # the key never stays on disk


def test_a_slow_plugin_is_killed_at_the_deadline(tmp_path: Path) -> None:
    slow = plugin(tmp_path, "sleep 60")
    start = time.monotonic()
    with pytest.raises(DeadlineError, match=r"still running when the 1\.5s deadline passed; killed"):
        run_plugin([str(slow)], {}, Deadline(1.5))
    assert time.monotonic() - start < 1.5 + 2


def test_a_failing_plugins_stderr_is_cut_and_scrubbed(tmp_path: Path) -> None:
    noisy = plugin(tmp_path, f"echo 'token={SECRET}' >&2; head -c 1000000 /dev/zero | tr '\\0' x >&2; exit 3")
    with pytest.raises(KubeConfigError) as raised:
        run_plugin([str(noisy)], {}, Deadline(20))
    message = str(raised.value)
    assert SECRET not in message and "token=<redacted>" in message
    assert len(message) < MAX_STDERR + 400  # was the whole 1,000,265 bytes
    assert "more bytes of stderr not shown" in message and "exited with code 3" in message


def test_the_plugin_is_told_it_is_not_interactive_and_its_token_is_sent(tmp_path: Path) -> None:
    seen = tmp_path / "exec-info.json"
    body = f"echo \"$KUBERNETES_EXEC_INFO\" > {seen}; echo '{credential({'token': 'from-plugin'}, V1).decode()}'"
    with KubeStandin.start(token="from-plugin", seed=[make_node("n1")]) as kube:
        config = exec_kubeconfig(kube, tmp_path, plugin(tmp_path, body), V1)
        with connect(str(config), None, env={}) as client:
            assert [n["metadata"]["name"] for n in client.list_nodes().items] == ["n1"]
    assert json.loads(seen.read_text()) == {"apiVersion": V1, "kind": "ExecCredential", "spec": {"interactive": False}}
