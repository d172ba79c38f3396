"""What the policy pack asks of a cloud (``PolicyReading``) to read and fix any program's pool resources of that
cloud: field paths, taint spelling, driver and plugin owners, the fixes to propose. The hooks over a resource's
props are asked once, by the pool's reader (``core.capacity.pool_facts.cloud_pool``), and the pack reads their
answers from ``PoolFacts``; the cloud's own image, MIG and health checks are its readers' (``<cloud>/pool_reader``).
Pure."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from gpuready.core.clouds.named import NamedCloud

if TYPE_CHECKING:
    from gpuready.core.taints import Taint


class PolicyReading(NamedCloud, Protocol):
    """How to read and fix any program's pool resources of the cloud."""

    policy_fields: ClassVar[tuple[str, str]]
    """Dotted paths of the taints and the labels inside the pool resource (``nodeConfig.taints``)."""
    policy_min_size_fields: ClassVar[tuple[str, ...]] = ()
    """Dotted paths of the pool resource's autoscaling minimum, the first one set wins (the scale-path rules: a DRA
    pool at zero nodes never scales up)."""
    policy_taints_as_text: ClassVar[bool] = False
    """Whether the resource spells taints as ``key=value:Effect`` text (else API objects with ``NO_SCHEDULE``)."""
    policy_untainted_note: ClassVar[str]
    """Why a GPU pool of this cloud without the GPU taint takes other pods (the cloud does not add it)."""
    policy_driver_hand_over: ClassVar[str]
    """How to hand the driver over to the GPU Operator when the cloud installs one."""
    policy_plugin_fix: ClassVar[str]
    """How to remove a second device plugin from a pool of this cloud."""
    policy_why_unserved: ClassVar[str]
    """Why nothing advertises a pool's GPUs when no release in the stack runs a device plugin."""
    policy_unowned_driver: ClassVar[str] = ""
    """The finding when a pool's cloud installs no driver and no GPU Operator release does ("" if the cloud always
    installs one where the GPU stack does not)."""

    def policy_preinstalled_driver(self, props: Mapping[str, Any], labels: Mapping[str, str]) -> str:
        """Who installs the driver on a pool resource outside the GPU stack, or ``""``."""
        return ""

    def policy_own_device_plugin(self, props: Mapping[str, Any], labels: Mapping[str, str]) -> str:
        """Who runs a device plugin on a pool resource outside the GPU stack, or ``""``."""
        return ""

    @abstractmethod
    def encoded_taint(self, taint: Taint) -> object:
        """``taint`` as this cloud's pool resource spells it (the fix a policy message proposes)."""
