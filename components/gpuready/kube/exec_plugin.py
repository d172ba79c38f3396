"""Credential exec plugins (kubeconfig ``users[].user.exec``) run as untrusted programs, within the deadline.

kubectl's contract (client-go ``plugin/pkg/client/auth/exec/exec.go``, kubernetes.io "client-go credential
plugins"): the plugin gets ``KUBERNETES_EXEC_INFO`` (an ``ExecCredential`` with ``spec.interactive``, and
``spec.cluster`` when the kubeconfig sets ``provideClusterInfo``: ``exec_info``), prints one
``ExecCredential`` of the requested ``apiVersion`` whose ``status`` holds a ``token`` or a
``clientCertificateData`` + ``clientKeyData`` pair (PEM), optionally ``expirationTimestamp``; a 401 runs it again.

Here the plugin is untrusted input:

* it runs with the time left before the command's deadline and is killed at it (``DeadlineError``);
* a plugin that is not installed is named with the kubeconfig's ``installHint`` (client-go, kubernetes/kubernetes
  @cb6ff2d8 ``staging/src/k8s.io/client-go/plugin/pkg/client/auth/exec/exec.go`` L521-534
  ``wrapCmdRunErrorLocked``: "executable ... not found", then the hint), cut and scrubbed like stderr;
* its stdout is read up to ``MAX_OUTPUT`` bytes, its stderr up to ``MAX_STDERR`` (the rest is drained, not kept),
  and stderr is shown cut and scrubbed of token-like strings (``redaction.scrub``);
* the output is parsed with clear errors: not JSON, not an ExecCredential, the wrong apiVersion, no token and no
  certificate pair;
* a certificate pair is loaded into the connection's TLS context (as client-go does), never kept on disk: it is
  written to a private temporary directory, loaded, and removed at once.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import ssl
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import httpx2
from lightkube.config.models import UserExec

from gpuready.kube.deadline import UNLIMITED, Deadline
from gpuready.kube.errors import DeadlineError, KubeConfigError
from gpuready.kube.redaction import scrub
from gpuready.record import record

API_VERSIONS = ("client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1")
"""What client-go still accepts (v1alpha1 was removed in Kubernetes 1.24)."""
MAX_OUTPUT = 1 << 20
"""Bytes of stdout read from a plugin (an ExecCredential is a few KB)."""
MAX_STDERR = 2000
"""Characters of a failing plugin's stderr shown (scrubbed)."""
JOIN_SECONDS = 1.0
"""How long to wait for a pipe's end after the plugin exited (a child it left behind may hold it open)."""
UNBOUNDED_RUN_SECONDS = 60.0
"""How long a plugin may run when the command has no deadline (library callers)."""


@record(frozen=True, slots=True)
class Credential:
    """What a plugin returned: a bearer token, or a client certificate and key (PEM text)."""

    token: str = ""
    certificate: str = ""
    key: str = ""
    expires: float | None = None
    """``time.time()`` at which it expires (None: until a 401)."""


def parse_credential(output: bytes, api_version: str, command: str) -> Credential:
    """The ``ExecCredential`` a plugin printed, or ``KubeConfigError`` saying what is wrong with it (never what
    it holds)."""
    where = f"exec plugin {command}"
    try:
        document = json.loads(output)
    except (UnicodeDecodeError, ValueError):
        raise KubeConfigError(
            f"{where}: its output is not JSON ({len(output):,} bytes); it must print an ExecCredential "
            f"(apiVersion {api_version}). Run it by hand to see what it prints"
        ) from None
    if not isinstance(document, dict) or document.get("kind") != "ExecCredential":
        raise KubeConfigError(f"{where}: its output is not an ExecCredential (kind: ExecCredential expected)")
    if document.get("apiVersion") != api_version:
        raise KubeConfigError(
            f"{where}: it answered apiVersion {scrub(str(document.get('apiVersion')))[:80]!r}, but the kubeconfig "
            f"asks for {api_version!r}; make them match"
        )
    status = document.get("status")
    status = status if isinstance(status, dict) else {}
    token, certificate, key = (status.get(k) for k in ("token", "clientCertificateData", "clientKeyData"))
    expires = _timestamp(status.get("expirationTimestamp"))
    if isinstance(token, str) and token:
        return Credential(token=token, expires=expires)
    if isinstance(certificate, str) and certificate and isinstance(key, str) and key:
        return Credential(certificate=certificate, key=key, expires=expires)
    if certificate or key:
        raise KubeConfigError(f"{where}: its ExecCredential has only one of clientCertificateData and clientKeyData")
    raise KubeConfigError(f"{where}: its ExecCredential has no status.token and no client certificate")


def _timestamp(value: object) -> float | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def run_plugin(command: Sequence[str], env: Mapping[str, str], deadline: Deadline, install_hint: str = "") -> bytes:
    """The plugin's stdout (at most ``MAX_OUTPUT`` bytes), run with the time left; killed at the deadline. A
    plugin that is not installed is named with ``install_hint`` (the kubeconfig's ``installHint``)."""
    limit = deadline.remaining() if deadline.seconds is not None else UNBOUNDED_RUN_SECONDS
    name = command[0]
    try:
        process = subprocess.Popen(
            list(command), env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group: killed with whatever it started
        )  # fmt: skip
    except FileNotFoundError:
        hint = scrub(install_hint).strip()[:MAX_STDERR]
        raise KubeConfigError(
            f"exec plugin {name}: executable not found"
            + (f"; its kubeconfig's installHint says: {hint}" if hint else "; install it or fix the exec command")
        ) from None
    except OSError as error:
        raise KubeConfigError(f"exec plugin {name}: cannot run it: {error.strerror or error}") from None
    assert process.stdout is not None and process.stderr is not None
    out, err = _Bounded(process.stdout, MAX_OUTPUT), _Bounded(process.stderr, MAX_STDERR)
    try:
        code = process.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        out.join()
        err.join()
        if deadline.seconds is None:
            raise KubeConfigError(f"exec plugin {name}: still running after {limit:g}s; killed") from None
        raise DeadlineError(
            f"exec plugin {name}: still running when {deadline.describe()} passed; killed",
            "the credential plugin did not finish",
        ) from None
    out.join()
    err.join()
    if code != 0:
        shown = scrub(err.text()).strip() or "(no stderr)"
        raise KubeConfigError(f"exec plugin {name} exited with code {code}: {shown}{err.more()}")
    if out.overflowed:
        raise KubeConfigError(f"exec plugin {name}: printed more than {MAX_OUTPUT:,} bytes; not a credential")
    return out.data


class _Bounded:
    """Reads a pipe to its end in a thread, keeping the first ``limit`` bytes (so the plugin never blocks)."""

    def __init__(self, pipe: IO[bytes], limit: int) -> None:
        self._pipe, self._limit = pipe, limit
        self._parts: list[bytes] = []
        self.size = 0
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        with self._pipe:
            while chunk := self._pipe.read(65536):
                kept = max(0, self._limit - self.size)
                if kept:
                    self._parts.append(chunk[:kept])
                self.size += len(chunk)

    def join(self) -> None:
        self._thread.join(timeout=JOIN_SECONDS)

    @property
    def overflowed(self) -> bool:
        return self.size > self._limit

    @property
    def data(self) -> bytes:
        return b"".join(self._parts)

    def text(self) -> str:
        return self.data.decode("utf-8", "replace")

    def more(self) -> str:
        return f" ... ({self.size - self._limit:,} more bytes of stderr not shown)" if self.overflowed else ""


class ExecCredentialAuth(httpx2.Auth):
    """httpx auth for a kubeconfig exec plugin: a bearer token, or a client certificate loaded into ``tls``."""

    def __init__(
        self,
        spec: UserExec,
        tls: ssl.SSLContext | None,
        environ: Mapping[str, str] | None = None,
        cluster: Mapping[str, Any] | None = None,
    ) -> None:
        if spec.apiVersion not in API_VERSIONS:
            raise KubeConfigError(
                f"exec plugin {spec.command}: apiVersion {spec.apiVersion!r} is not supported; use one of "
                f"{', '.join(API_VERSIONS)}"
            )
        self._spec = spec
        self._tls = tls
        self._environ = os.environ if environ is None else environ
        self._cluster = cluster
        """``spec.cluster`` when the kubeconfig's ``provideClusterInfo`` is true (``exec_info``), else None."""
        self._lock = threading.Lock()
        self._credential: Credential | None = None
        self.deadline_of: Callable[[], Deadline] = lambda: UNLIMITED
        """The command's deadline (set by ``nodes_api`` to the transport's)."""

    def _command(self) -> tuple[list[str], dict[str, str]]:
        env = dict(self._environ)
        env.update((var.name, var.value) for var in self._spec.env or ())
        spec: dict[str, Any] = {"interactive": False}
        if self._cluster is not None:
            spec["cluster"] = dict(self._cluster)
        info = {"apiVersion": self._spec.apiVersion, "kind": "ExecCredential", "spec": spec}
        env["KUBERNETES_EXEC_INFO"] = json.dumps(info)
        return [self._spec.command, *(self._spec.args or [])], env

    def credential(self, force: bool = False) -> Credential:
        with self._lock:
            current = self._credential
            fresh = current is not None and (current.expires is None or current.expires > time.time() + 10)
            if force or not fresh:
                command, env = self._command()
                output = run_plugin(command, env, self.deadline_of(), self._spec.installHint or "")
                current = parse_credential(output, self._spec.apiVersion, self._spec.command)
                if current.certificate:
                    self._load_certificate(current)
                self._credential = current
            assert current is not None
            return current

    def _load_certificate(self, credential: Credential) -> None:
        if self._tls is None:
            raise KubeConfigError(f"exec plugin {self._spec.command}: a client certificate needs an https server")
        with tempfile.TemporaryDirectory(prefix="gpuready-cred-") as private:  # 0700, removed right after loading
            cert, key = Path(private) / "cert.pem", Path(private) / "key.pem"
            for path, text in ((cert, credential.certificate), (key, credential.key)):
                path.touch(mode=0o600)
                path.write_text(text, encoding="utf-8")
            try:
                self._tls.load_cert_chain(str(cert), str(key))
            except (ssl.SSLError, OSError):
                raise KubeConfigError(
                    f"exec plugin {self._spec.command}: its clientCertificateData/clientKeyData are not a usable "
                    "PEM certificate and key pair"
                ) from None

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        credential = self.credential()
        if credential.token:
            request.headers["Authorization"] = f"Bearer {credential.token}"
        response = yield request
        if response.status_code == 401:
            response.close()
            with contextlib.suppress(KeyError):
                del request.headers["Authorization"]
            credential = self.credential(force=True)
            if credential.token:
                request.headers["Authorization"] = f"Bearer {credential.token}"
            yield request
