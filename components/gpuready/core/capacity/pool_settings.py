"""A GPU pool's own cloud settings as its reader reads them: its node image, MIG partitioning and GPU health
reporting. Pure.

Each cloud's reader writes these normalised facts (with the cloud's field paths, names and fixes); one policy rule
per convention judges them for every cloud (``gpuready.policy.rules.pool_settings``).
"""

from __future__ import annotations

from gpuready.record import record


@record(frozen=True, kw_only=True, slots=True)
class NodeImage:
    """The node image a GPU pool resource names (EKS: its ``amiType``)."""

    field: str
    """Its field path inside the resource."""
    named: str | None
    """As written; None when the resource names none."""
    elsewhere: bool = False
    """The image comes from elsewhere (a launch template, a custom image): nothing here to judge."""
    driver: bool
    """The named image carries the NVIDIA driver."""
    retired: str = ""
    """Why the named image is no longer current (with its source), "" when it is."""
    arch: str
    """The CPU architecture the named image is for."""
    want: str
    """The image to name for the pool's GPUs and CPU architecture."""
    allowed: tuple[str, ...]
    """The cloud's images with the NVIDIA driver."""
    machines: str
    """How messages name the pool's machines (its instance types)."""
    unset: str
    """What the cloud does when the resource names no image."""
    alternative: str = ""
    """Another image family to offer beside ``want`` for a retired image, or ""."""


@record(frozen=True, kw_only=True, slots=True)
class MigSetting:
    """A MIG partitioning the cloud's own field asks of a pool's GPU (AKS ``gpuInstanceProfile``, GKE
    ``gpuPartitionSize``)."""

    field: str
    """Its field path inside the resource."""
    profile: str
    """As written."""
    names: tuple[str, ...] = ()
    """The cloud's set of profile names (AKS ``MIG1g``...), () when it takes the GPU's own profile names."""
    gpu: str = ""
    """How messages name the GPU the setting partitions, "" when the reader does not know it."""
    offered: tuple[str, ...] | None = None
    """The profiles the cloud offers on that GPU (its names), None when it cannot partition the GPU."""
    shown: tuple[str, ...] | None = None
    """Those of ``offered`` messages list as allowed, None for all of them."""
    cannot: str = ""
    """Why the cloud cannot partition the GPU (``GKE cannot partition L4 GPUs``)."""
    fix: str = ""
    """What to do when it cannot (``Remove gpuPartitionSize``)."""


@record(frozen=True, kw_only=True, slots=True)
class HealthOff:
    """A pool setting that turns off the cloud's own GPU health checks (AKS ``gpuProfile.driver: None``)."""

    field: str
    """Its field path inside the resource."""
    value: str
    """As written."""
    checks: str
    """The checks it turns off, and what they would report."""
