"""The conventions on a GPU pool's own cloud settings, each written once over the facts every cloud's reader writes
(``gpuready.core.capacity.pool_settings``): a current node image with the NVIDIA driver for the pool's CPU
architecture, MIG profiles the pool's GPU has, and the cloud's GPU health checks left on. Pure: the field names,
values and fixes in the messages are the facts' own.
"""

from __future__ import annotations

from gpuready.core.capacity.pool_facts import PoolFacts

HEALTH_ALTERNATIVES = (
    "NVIDIA NVSentinel, or the GPU Operator's DCGM exporter with health alerts (gpuready check reads NVSentinel's "
    "conditions)"
)
"""How to watch a pool's GPUs when its cloud does not."""


def image_problems(pool: PoolFacts) -> list[str]:
    """What is wrong with the node image a GPU pool names for its GPUs and CPU architecture."""
    image = pool.image
    if image is None or image.elsewhere:
        return []
    if image.named is None:
        return [
            f"{image.field}: not set for GPU instance types {image.machines}; {image.unset}. "
            f"Set {image.field}: {image.want!r}"
        ]
    if image.retired:
        alternative = f" (or {image.alternative})" if image.alternative else ""
        return [f"{image.field}: {image.named!r} is {image.retired}. Use {image.want!r}{alternative}"]
    if not image.driver:
        return [
            f"{image.field}: {image.named!r} has no NVIDIA driver, so the GPUs of {image.machines} are never usable. "
            f"Use {image.want!r} (allowed: {', '.join(image.allowed)})"
        ]
    if pool.arch is not None and image.arch != pool.arch:
        return [f"{image.field}: {image.named!r} is for {image.arch}, but {image.machines} is {pool.arch}. "
                f"Use {image.want!r}"]  # fmt: skip
    return []


def mig_problems(pool: PoolFacts) -> list[str]:
    """What is wrong with the MIG partitioning the cloud's own fields ask of the pool's GPU."""
    problems = []
    for mig in pool.mig:
        if mig.names and mig.profile not in mig.names:
            problems.append(f"{mig.field}: unknown MIG profile; got {mig.profile!r}. Allowed: {', '.join(mig.names)}")
        elif not mig.gpu:
            continue
        elif mig.offered is None:
            problems.append(f"{mig.field}: {mig.cannot}; got {mig.profile!r}. {mig.fix}")
        elif mig.profile not in mig.offered:
            allowed = ", ".join(mig.offered if mig.shown is None else mig.shown)
            problems.append(f"{mig.field}: {mig.gpu} has no MIG profile {mig.profile!r}. Allowed: {allowed}")
    return problems


def health_gap(pool: PoolFacts) -> str:
    """Why the cloud runs no GPU health checks on the pool's nodes (with the alternatives), or ""."""
    off = pool.health_off
    if off is None:
        return ""
    return (
        f"{off.field}: {off.value!r} turns off {off.checks}, so a broken GPU stays unreported. Watch the pool "
        f"another way: {HEALTH_ALTERNATIVES}"
    )
