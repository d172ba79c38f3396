"""What every audience of a cloud profile reads: the cloud's name and how messages name it. Pure."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol

if TYPE_CHECKING:
    from gpuready.core.clouds.registry import Cloud


class NamedCloud(Protocol):
    """A cloud's name and title."""

    name: ClassVar[Cloud]
    title: ClassVar[str]
    """How messages name the cloud (``EKS``)."""
