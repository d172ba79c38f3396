"""The conventions a team may set for its GPU nodes, read the same way by gpuready's pools, the policy pack,
``gpuready plan``, ``check`` and ``verify``. Pure.

- ``gpuTaint``: the taint that keeps other pods off GPU nodes. gpuready's pools carry ``nvidia.com/gpu=present:
  NoSchedule``; Microsoft's AKS documentation taints GPU pools ``sku=gpu:NoSchedule`` instead (azure-aks-docs
  ``articles/aks/use-nvidia-gpu.md``, "Create an AKS cluster ... --node-taints sku=gpu:NoSchedule"). Rules then ask
  for that taint on pools and for a toleration of it in GPU pods and GPU-stack DaemonSets.
- ``skypilotLabels``: whether GPU pools carry SkyPilot's ``skypilot.co/accelerator`` label (on by default).

A stack's conventions are resolved once (``stack_settings``) and carried by every pool spec
(``GpuPoolSpec.conventions``): its taint, labels, node-template tags, and the tolerations of its workloads and GPU
stack follow them (``scheduling.pool_taints`` / ``pool_labels`` / ``tolerated_taints``).

In the pack they are policy config properties (``--policy-config``, Pulumi's policy config schema: each policy that
reads one declares it); a stack says them once in ``gpuready:conventions`` and ``gpuready plan`` hands them to every
policy that declares them; ``check`` / ``verify`` take ``--gpu-taint`` and ``--no-skypilot-labels``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.k8s_syntax import TAINT_EFFECTS
from gpuready.core.scheduling import GPU_TAINT
from gpuready.core.taints import Taint, parse_taint_text
from gpuready.errors import Problem, SpecError
from gpuready.record import record

GPU_TAINT_PROPERTY = "gpuTaint"
SKYPILOT_PROPERTY = "skypilotLabels"

GPU_TAINT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "key": {"type": "string", "minLength": 1},
        "value": {"type": "string"},
        "effect": {"type": "string", "enum": list(TAINT_EFFECTS)},
    },
    "required": ["key", "effect"],
    "additionalProperties": False,
    "default": {"key": GPU_TAINT.key, "value": GPU_TAINT.value, "effect": GPU_TAINT.effect},
    "description": "The taint that keeps other pods off GPU nodes (Kubernetes spelling), e.g. Microsoft's "
    "{key: sku, value: gpu, effect: NoSchedule}.",
}
"""The ``gpuTaint`` property of every policy that reads the GPU taint."""
SKYPILOT_SCHEMA: dict[str, Any] = {
    "type": "boolean",
    "default": True,
    "description": "Whether GPU pools carry SkyPilot's skypilot.co/accelerator label.",
}


@record(frozen=True, slots=True)
class Conventions:
    """A team's GPU node conventions."""

    gpu_taint: Taint = GPU_TAINT
    skypilot_labels: bool = True

    def policy_properties(self) -> dict[str, Any]:
        """The pack's config properties for these conventions."""
        taint = {"key": self.gpu_taint.key, "value": self.gpu_taint.value, "effect": self.gpu_taint.effect}
        return {GPU_TAINT_PROPERTY: taint, SKYPILOT_PROPERTY: self.skypilot_labels}


DEFAULT = Conventions()


def gpu_taint_of(config: Mapping[str, Any]) -> Taint:
    """The GPU taint a policy's config sets (its ``gpuTaint``), gpuready's by default; the engine checked the
    schema, a test or the offline gate may not have: a malformed value is the default's."""
    value = config.get(GPU_TAINT_PROPERTY)
    if isinstance(value, Mapping):
        key, effect = value.get("key"), value.get("effect")
        if isinstance(key, str) and key and effect in TAINT_EFFECTS:
            text = value.get("value")
            return Taint(key=key, value=text if isinstance(text, str) else "", effect=effect)
    return GPU_TAINT


def skypilot_labels_of(config: Mapping[str, Any]) -> bool:
    value = config.get(SKYPILOT_PROPERTY)
    return value if isinstance(value, bool) else True


def parse_conventions(value: object, path: str = "gpuready:conventions") -> Conventions:
    """``{gpuTaint: "key=value:Effect" | {key, value, effect}, skypilotLabels: bool}`` (stack settings, flags);
    raises ``SpecError`` naming every problem."""
    if value is None:
        return DEFAULT
    if not isinstance(value, Mapping):
        raise SpecError.one(
            path, "is not a mapping", value, ("gpuTaint", "skypilotLabels"), "e.g. {gpuTaint: sku=gpu:NoSchedule}"
        )
    problems: list[Problem] = []
    unknown = sorted(set(value) - {GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY})
    problems += [
        Problem(f"{path}.{k}", "unknown key", None, (GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY), "drop it") for k in unknown
    ]
    taint = GPU_TAINT
    if GPU_TAINT_PROPERTY in value:
        parsed = parse_gpu_taint(value[GPU_TAINT_PROPERTY], f"{path}.{GPU_TAINT_PROPERTY}")
        if isinstance(parsed, Problem):
            problems.append(parsed)
        else:
            taint = parsed
    skypilot = value.get(SKYPILOT_PROPERTY, True)
    if not isinstance(skypilot, bool):
        problems.append(Problem(f"{path}.{SKYPILOT_PROPERTY}", "is not true or false", skypilot, ("true", "false"), ""))
    if problems:
        raise SpecError(problems)
    return Conventions(gpu_taint=taint, skypilot_labels=bool(skypilot))


def parse_gpu_taint(value: object, path: str) -> Taint | Problem:
    """A GPU taint from ``key=value:Effect`` text or a ``{key, value, effect}`` mapping, or the problem with it."""
    parts: tuple[object, object, object] = ("", "", "")
    if isinstance(value, str):
        parts = parse_taint_text(value) or parts
    elif isinstance(value, Mapping):
        parts = (value.get("key"), value.get("value", ""), value.get("effect"))
    key, text, effect = parts
    if not isinstance(key, str) or not key or not isinstance(text, str) or effect not in TAINT_EFFECTS:
        return Problem(
            path, "is not a taint", value, ("key=value:Effect", "{key, value, effect}"),
            f"e.g. sku=gpu:NoSchedule; effects: {', '.join(TAINT_EFFECTS)}",
        )  # fmt: skip
    return Taint(key=key, value=text, effect=effect)
