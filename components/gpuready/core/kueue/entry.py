"""The Kueue objects' registration entry (``gpuready:kueue``). Pure.

Its component (``gpuready.kueue.queue_objects``), config model and parser (``config_model.kueue_model``), and the
schema's text of its inputs and outputs, listed once in ``gpuready.core.setting_components``; the facade, the
stack program and the component package derive from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.component_entry import KUBERNETES_PROVIDER, SettingEntry

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gpuready.core.config_model.kueue_model import KueueConfig


def _model() -> type[KueueConfig]:
    from gpuready.core.config_model.kueue_model import KueueConfig  # noqa: PLC0415 - built only for a stack that sets the key

    return KueueConfig


def _parse(raw: object, pools: Sequence[Any], path: str) -> Any:
    from gpuready.core.config_model.parsers import parse_kueue  # noqa: PLC0415 - as _model

    return parse_kueue(raw, pools, path)


def _needed(spec: Any, pools: Sequence[Any]) -> bool:
    """Whether the stack gets Kueue objects or a warning about queued pools left without them (else the stack
    program never imports the component)."""
    from gpuready.core.kueue.objects import flavored, unqueued_warnings  # noqa: PLC0415 - as _model

    return bool(flavored(pools, spec) or unqueued_warnings(pools, spec))


KUEUE_OBJECTS = SettingEntry(
    name="GpuKueueObjects",
    module="gpuready.kueue.queue_objects",
    builder="gpuready.kueue.queue_objects",
    key="kueue",
    setting="kueue",
    stack_name="kueue",
    model=_model,
    parse=_parse,
    needed=_needed,
    description="The Kueue objects of the pools (gpuready:kueue): a ResourceFlavor per chosen pool, a "
    "ProvisioningRequestConfig and an AdmissionCheck per queued pool, and on request a ClusterQueue over the "
    "flavors and LocalQueues onto it (Kueue v0.19, v1beta2). " + KUBERNETES_PROVIDER,
    pools="The pools the stack serves, as entries of gpuready:nodePools (the same as the pool components').",
    outputs={
        "flavors": {"type": "array", "items": {"type": "string"}, "description": "The ResourceFlavors' names."},
        "admissionChecks": {"type": "array", "items": {"type": "string"},
                            "description": "The AdmissionChecks' names (the queued pools')."},
        "clusterQueue": {"type": "string", "description": "The ClusterQueue's name; empty when none is made."},
        "localQueues": {"type": "array", "items": {"type": "string"},
                        "description": "The LocalQueues, as <namespace>/<name>."},
    },
)  # fmt: skip
