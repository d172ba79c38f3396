"""The exec plugins the clouds run in-process, for cluster access: each profile's ``exec_credentials`` (EKS's
``aws eks get-token``, minted with botocore), asked in registry order. Above the cloud packages, so
``gpuready.kube`` is given them (``credentials=recognise``) and neither names nor loads a cloud; each recogniser's
module is imported on first use (it loads its cloud's SDK late)."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping, Sequence

from gpuready.core.clouds.registry import cloud_profiles
from gpuready.kube.exec_credentials import InProcessCredential, Recogniser


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
