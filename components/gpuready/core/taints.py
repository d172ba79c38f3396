"""Taints: the one ``Taint`` type (Kubernetes spelling) and the one parser of ``key=value:Effect`` text. Pure.

The text form is the one ``kubectl taint`` and AKS ``nodeTaints`` use: ``key=value:Effect``, or ``key:Effect``
without a value (Kubernetes "Taints and Tolerations"; AKS ``nodeTaints`` in the agent pool API). Each cloud's
own encoding stays with the cloud's code (``gpuready.eks.plan.to_eks_taint`` and its siblings), from the
spelling tables here.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.k8s_syntax import TaintEffect
from gpuready.record import record

UPPER_SNAKE_EFFECTS: Mapping[TaintEffect, str] = {
    "NoSchedule": "NO_SCHEDULE",
    "PreferNoSchedule": "PREFER_NO_SCHEDULE",
    "NoExecute": "NO_EXECUTE",
}
"""Taint effects as the cloud APIs that use enum spelling write them (``NO_SCHEDULE``)."""


@record(frozen=True, slots=True)
class Taint:
    """A Kubernetes taint in Kubernetes spelling (effects ``NoSchedule`` etc.).

    The effect is not checked here: a pool's taints are checked by ``pool_rules``, and taints read back from a
    cloud API keep an effect as written so that policies can report it."""

    key: str
    value: str = ""
    effect: TaintEffect = "NoSchedule"

    def __str__(self) -> str:
        return f"{self.key}={self.value}:{self.effect}" if self.value else f"{self.key}:{self.effect}"


def parse_taint_text(text: str) -> tuple[str, str, str] | None:
    """``(key, value, effect)`` of ``key=value:Effect`` or ``key:Effect``; None when there is no key or effect."""
    head, sep, effect = text.rpartition(":")
    key, _, value = head.partition("=")
    if not sep or not key:
        return None
    return key, value, effect
