"""What a cloud's GPU catalog answers (``CloudCatalog``): its instance types, how to recognise GPU types it does
not list, and their node fabrics. Read by the catalog look-up, the pool readers, the support matrix and the fabric
rules. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Protocol

from gpuready.core.clouds.named import NamedCloud
from gpuready.core.fabric.model import NO_FABRIC, CloudFabric

if TYPE_CHECKING:
    from gpuready.core.catalog.instance_types import AttachableGpus, InstanceType


class CloudCatalog(NamedCloud, Protocol):
    """The cloud's GPU instance types and how to read their names."""

    instance_types: ClassVar[Mapping[str, InstanceType]]
    """The cloud's GPU instance types (catalog)."""
    instance_types_fold_case: ClassVar[bool] = False
    """Whether the cloud matches instance type names case-insensitively (Azure VM sizes)."""
    attachable: ClassVar[AttachableGpus | None] = None
    """A machine family that takes GPUs as guest accelerators (GCE N1), if any."""
    fabric: ClassVar[CloudFabric] = NO_FABRIC
    """The node fabrics of the cloud's instance types and its rules for them (``gpuready.core.fabric``)."""
    accelerator_names: ClassVar[Mapping[str, str]] = {}
    """GPU model key -> the cloud's own name for it (GKE's accelerator type), where the cloud names GPUs; the node
    label carrying it is the cloud's ``node_labels.accelerator``."""

    def unlisted_gpu_type(self, name: str) -> bool:
        """Whether ``name`` is a GPU instance type of the cloud that the catalog may not list (its GPU family's), so
        the pool readers recognise any program's pools of GPU types gpuready does not know yet."""
        return False

    def gpu_family(self, family: str) -> bool:
        """Whether an instance family of the cloud (its Karpenter instance-family label's value) is a GPU family."""
        return False

    matrix_types: ClassVar[tuple[str, str]]
    """A plain GPU type and a MIG-capable one, for the generated support matrix."""
