"""Exec credential plugins gpuready runs in-process: a cloud's own token command in a kubeconfig user's ``exec``
block (``aws eks get-token``) recognised and replaced by the cloud's library, within the command's deadline, so the
command's CLI is not needed.

The recognisers are the clouds' (each profile's ``exec_credentials``, a ``module:function`` imported on first use:
it loads the cloud's SDK late); this module only asks them, so cluster access names no cloud.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import httpx2

from gpuready.core.clouds.registry import cloud_profiles
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
"""A cloud's ``exec_credentials``: (command, args, the exec block's env) -> its credential, or None for another
plugin."""


def recognise(command: str, args: Sequence[str], env: Mapping[str, str]) -> InProcessCredential | None:
    """The credential a cloud runs in-process for this exec plugin; None when no cloud recognises it."""
    for recogniser in _recognisers():
        found = recogniser(command, args, env)
        if found is not None:
            return found
    return None


@functools.cache
def _recognisers() -> tuple[Recogniser, ...]:
    found: list[Recogniser] = []
    for profile in cloud_profiles():
        if profile.exec_credentials is None:
            continue
        module, _, name = profile.exec_credentials.partition(":")
        found.append(getattr(importlib.import_module(module), name))
    return tuple(found)
