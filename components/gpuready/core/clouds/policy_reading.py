"""What the policy pack asks of a cloud (``PolicyReading``) to word its findings on any program's pool resources
of that cloud: taint spelling and encoding, why a pool is untainted, how to hand the driver over or remove a second
device plugin. What a resource declares (field paths, driver and plugin owners, the cloud's image, MIG and health
checks) is its reader's (``<cloud>/pool_reader``, into ``PoolFacts``). Pure."""

from __future__ import annotations

from abc import abstractmethod
from typing import TYPE_CHECKING, ClassVar, Protocol

from gpuready.core.clouds.named import NamedCloud

if TYPE_CHECKING:
    from gpuready.core.taints import Taint


class PolicyReading(NamedCloud, Protocol):
    """How to read and fix any program's pool resources of the cloud."""

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

    @abstractmethod
    def encoded_taint(self, taint: Taint) -> object:
        """``taint`` as this cloud's pool resource spells it (the fix a policy message proposes)."""
