"""Outputs a provider computes on create, faked for the mock runtime so programs that read them run offline. Pure.

The mocks echo inputs as outputs; the outputs gpuready's components read that no input holds are each cloud's
(``CloudProfile.offline_answers``, ``<cloud>/offline_answers.py``): this module only asks by type token. Values are
clearly fake (a name ending in ``-offline``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from gpuready.core.clouds.offline_answers import ComputedOutputs
from gpuready.core.clouds.registry import sole_owner


@cache
def _answer(type_token: str) -> ComputedOutputs | None:
    """The answer of the cloud owning ``type_token`` (a cloud answers only for types it alone owns: it alone loads)."""
    owner = sole_owner(type_token)
    return None if owner is None else owner.offline_answers.outputs.get(type_token)


def computed_outputs(type_token: str, name: str, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Extra outputs for a resource of ``type_token`` registered as ``name`` with ``inputs`` (wire names)."""
    answer = _answer(type_token)
    return answer(name, inputs) if answer is not None else {}
