"""EKS bearer tokens minted with botocore, so ``aws eks get-token`` (and the AWS CLI) is not needed.

The token is what the AWS CLI produces (aws-cli ``customizations/eks/get_token.py``): ``k8s-aws-v1.`` followed
by the unpadded base64url of an STS ``GetCallerIdentity`` URL presigned for 60 seconds, with the cluster name
in the signed ``x-k8s-aws-id`` header. EKS accepts a token for 15 minutes; it is re-minted after 14, like
the CLI's ``expirationTimestamp``, or on a 401.

Registered as ``EksProfile.exec_credentials`` (``parse_eks_exec``), which ``gpuready.kube.exec_credentials`` asks
when a kubeconfig user runs an exec plugin: cluster access (``gpuready.kube``) names no cloud.
"""

from __future__ import annotations

import base64
import threading
import time
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import field
from pathlib import PurePath
from typing import Any

import httpx2

from gpuready.kube.deadline import UNLIMITED, Deadline
from gpuready.kube.errors import DeadlineError, KubeConfigError
from gpuready.kube.exec_credentials import DeadlineAuth
from gpuready.record import record

TOKEN_PREFIX = "k8s-aws-v1."
CLUSTER_ID_HEADER = "x-k8s-aws-id"
PRESIGN_EXPIRES_SECONDS = 60
TOKEN_REFRESH_SECONDS = 14 * 60
STS_ATTEMPTS = 2
"""Attempts per STS call (botocore ``total_max_attempts``, standard retry mode)."""
STS_TIMEOUT_SECONDS = 10.0
"""Longest connect or read timeout per STS attempt (shorter when less time is left)."""


@record(frozen=True, slots=True)
class EksExec:
    """What a kubeconfig ``exec`` block running ``aws eks get-token`` asks for."""

    cluster: str
    """EKS cluster name (``--cluster-name``) or ID (``--cluster-id``)."""
    region: str | None = None
    role_arn: str | None = None
    profile: str | None = None
    """AWS profile from ``--profile`` or the exec block's ``AWS_PROFILE``."""
    env: Mapping[str, str] = field(default_factory=dict)
    """The exec block's environment entries."""

    def describe(self) -> str:
        """How the user authenticates (``KubeTarget.auth_kind``)."""
        role = f", role {self.role_arn}" if self.role_arn else ""
        return f"EKS token for cluster {self.cluster}{role}"

    def auth(self) -> EksTokenAuth:
        """A new auth minting this cluster's token with botocore."""
        return EksTokenAuth(self)


def _options(args: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    words: list[str] = []
    options: dict[str, str] = {}
    index = 0
    while index < len(args):
        arg = args[index]
        if arg.startswith("-") and "=" in arg:
            name, _, value = arg.partition("=")
            options[name] = value
        elif arg.startswith("-") and index + 1 < len(args) and not args[index + 1].startswith("-"):
            options[arg] = args[index + 1]
            index += 1
        elif arg.startswith("-"):
            options[arg] = ""
        else:
            words.append(arg)
        index += 1
    return words, options


def parse_eks_exec(command: str, args: Sequence[str], env: Mapping[str, str]) -> EksExec | None:
    """Recognise ``aws [...] eks get-token`` or ``aws-iam-authenticator token``; None for other plugins."""
    program = PurePath(command).name.removesuffix(".exe")
    words, options = _options(args)
    if program == "aws" and words[:2] == ["eks", "get-token"]:
        cluster = options.get("--cluster-name") or options.get("--cluster-id")
        role = options.get("--role-arn")
    elif program == "aws-iam-authenticator" and words[:1] == ["token"]:
        cluster = options.get("-i") or options.get("--cluster-id")
        role = options.get("-r") or options.get("--role")
    else:
        return None
    if not cluster:
        return None
    region = options.get("--region") or env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION")
    profile = options.get("--profile") or env.get("AWS_PROFILE")
    return EksExec(cluster, region or None, role or None, profile or None, dict(env))


def sts_config(deadline: Deadline) -> Any:
    """botocore's ``Config`` for STS within ``deadline``: connect and read timeouts of half the time left (at most
    ``STS_TIMEOUT_SECONDS``) and ``STS_ATTEMPTS`` attempts in all, so its own retries end by the deadline too
    (botocore's defaults are 60 s timeouts and legacy-mode retries)."""
    from botocore.config import Config  # type: ignore[import-untyped]  # noqa: PLC0415 - botocore only for EKS clusters

    left = deadline.remaining()
    per_try = min(STS_TIMEOUT_SECONDS, max(0.1, left / STS_ATTEMPTS))
    return Config(
        connect_timeout=per_try,
        read_timeout=per_try,
        retries={"total_max_attempts": STS_ATTEMPTS, "mode": "standard"},
    )


def eks_token(
    spec: EksExec, session: Any = None, role_session_name: str = "gpuready", deadline: Deadline = UNLIMITED
) -> str:
    """Mint a token for ``spec.cluster``. ``session`` is a ``botocore.session.Session`` (default: a new one);
    every STS call is bounded by ``deadline`` (``sts_config``).

    botocore is imported here, on the first token: only EKS clusters pay for it (about 0.3 s).
    """
    import botocore.exceptions  # type: ignore[import-untyped]  # noqa: PLC0415 - botocore only for EKS clusters, on the first token
    import botocore.session  # type: ignore[import-untyped]  # noqa: PLC0415 - botocore only for EKS clusters, on the first token

    config = sts_config(deadline)
    try:
        session = session if session is not None else botocore.session.Session(profile=spec.profile)
        region = spec.region or session.get_config_variable("region")
        if not region:
            raise KubeConfigError(
                f"EKS cluster {spec.cluster!r}: no AWS region; add --region to the kubeconfig's aws eks get-token "
                "args or set AWS_REGION"
            )
        sts = session.create_client("sts", region_name=region, config=config)
        if spec.role_arn:
            assumed = sts.assume_role(RoleArn=spec.role_arn, RoleSessionName=role_session_name)["Credentials"]
            sts = session.create_client(
                "sts",
                region_name=region,
                aws_access_key_id=assumed["AccessKeyId"],
                aws_secret_access_key=assumed["SecretAccessKey"],
                aws_session_token=assumed["SessionToken"],
                config=config,
            )
        sts.meta.events.register("before-sign.sts.GetCallerIdentity", _cluster_header(spec.cluster))
        url = sts.generate_presigned_url(
            "get_caller_identity", Params={}, ExpiresIn=PRESIGN_EXPIRES_SECONDS, HttpMethod="GET"
        )
    except botocore.exceptions.BotoCoreError as error:
        raise KubeConfigError(f"EKS cluster {spec.cluster!r}: cannot mint a token: {error}") from error
    except botocore.exceptions.ClientError as error:
        raise KubeConfigError(f"EKS cluster {spec.cluster!r}: cannot assume {spec.role_arn}: {error}") from error
    encoded = base64.urlsafe_b64encode(str(url).encode("utf-8")).decode("ascii").rstrip("=")
    return TOKEN_PREFIX + encoded


def _cluster_header(cluster: str) -> Callable[..., None]:
    def inject(request: Any, **_: Any) -> None:
        request.headers[CLUSTER_ID_HEADER] = cluster

    return inject


class EksTokenAuth(DeadlineAuth):
    """httpx auth that sends a botocore-minted EKS token, re-minting it before expiry and once on 401.

    Minting runs within the command's deadline (``deadline_of``): botocore gets ``sts_config``, and a watchdog ends
    the wait at the deadline whatever botocore does (credential providers, DNS), with ``DeadlineError``."""

    def __init__(self, spec: EksExec, mint: Callable[[EksExec], str] | None = None) -> None:
        super().__init__()
        self._spec = spec
        self._mint = mint
        self._lock = threading.Lock()
        self._token = ""
        self._minted = 0.0

    def _current(self, force: bool = False) -> str:
        with self._lock:
            if force or not self._token or time.monotonic() - self._minted > TOKEN_REFRESH_SECONDS:
                self._token = self._mint_within(self.deadline_of())
                self._minted = time.monotonic()
            return self._token

    def _mint_within(self, deadline: Deadline) -> str:
        mint = self._mint or (lambda spec: eks_token(spec, deadline=deadline))
        if deadline.seconds is None:
            return mint(self._spec)
        result: list[str] = []
        failure: list[BaseException] = []

        def run() -> None:
            try:
                result.append(mint(self._spec))
            except BaseException as error:  # noqa: BLE001 - handed to the caller's thread below, re-raised there
                failure.append(error)

        worker = threading.Thread(target=run, name="gpuready-eks-token", daemon=True)
        worker.start()
        worker.join(timeout=deadline.remaining())
        if failure:
            raise failure[0]
        if not result:
            raise DeadlineError(
                f"EKS cluster {self._spec.cluster!r}: no token before {deadline.describe()} passed (STS or the AWS "
                "credentials did not answer in time)",
                "minting the EKS token (STS) did not finish",
            )
        return result[0]

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._current()}"
        response = yield request
        if response.status_code == 401:
            request.headers["Authorization"] = f"Bearer {self._current(force=True)}"
            yield request
