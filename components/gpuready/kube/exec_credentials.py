"""Exec credential plugins gpuready runs in-process: a cloud's own token command in a kubeconfig user's ``exec``
block (``aws eks get-token``) recognised and replaced by the cloud's library, within the command's deadline, so the
command's CLI is not needed.

The recognisers are the clouds' (each profile's ``exec_credentials``); the commands above the cloud packages pass
them in (``gpuready.cloud_credentials.recognise``), so cluster access neither names nor loads a cloud.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import httpx2

from gpuready.kube.deadline import UNLIMITED, Deadline


class DeadlineAuth(httpx2.Auth):
    """httpx auth whose credential takes time to get: ``nodes_api`` tells it the command's deadline."""

    def __init__(self) -> None:
        self.deadline_of: Callable[[], Deadline] = lambda: UNLIMITED
        """The command's deadline (set by ``nodes_api`` to the transport's)."""


class InProcessCredential(Protocol):
    """A user's exec plugin that gpuready runs in-process (what its arguments and environment ask for)."""

    def describe(self) -> str:
        """How the user authenticates, for messages (``KubeTarget.auth_kind``)."""
        ...

    def auth(self) -> DeadlineAuth:
        """A new auth that gets the credential in-process, within the command's deadline."""
        ...


Recogniser = Callable[[str, Sequence[str], Mapping[str, str]], "InProcessCredential | None"]
"""(command, args, the exec block's env) -> the credential run in-process, or None for a plugin to run as it is: a
cloud's ``exec_credentials``, or ``gpuready.cloud_credentials.recognise`` asking every cloud's."""
