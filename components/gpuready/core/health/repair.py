"""Node auto repair as a pool key (``repair``): what each provisioner does and the policy's rules. Pure.

(The GPU-suited repair actions gpuready gives a cloud's own node groups are the cloud's: ``gpuready.eks.repair``.)

Each provisioner carries its ``RepairFacts`` (``Provisioner.repair``): what the platform does when repair is on,
whether a pool can turn it off, whether gpuready tunes it, and the source.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from gpuready.errors import Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.specs import GpuPoolSpec

RepairAction = Literal["Replace", "Reboot", "NoAction"]
DEFAULT_MAX_PARALLEL = 1
"""GPU nodes repaired at once: one (a replacement needs a free GPU instance, which scarce types rarely have)."""
DEFAULT_MAX_UNHEALTHY_PERCENT = 50
"""Above this share of unhealthy nodes repair stops: that many broken GPU nodes at once is a cluster-wide cause
(a driver, a health agent that cannot reach DCGM), which replacing nodes does not fix."""


@record(frozen=True, kw_only=True, slots=True)
class RepairPolicy:
    """``repair`` of a pool: on (default) or off, and how many nodes at once."""

    enabled: bool = True
    max_parallel: int | None = None
    """Nodes repaired at once (EKS node groups); None: ``DEFAULT_MAX_PARALLEL``."""
    max_unhealthy_percent: int | None = None
    """Repair stops above this share of unhealthy nodes (EKS node groups); None: ``DEFAULT_MAX_UNHEALTHY_PERCENT``."""

    @property
    def tuned(self) -> bool:
        return self.max_parallel is not None or self.max_unhealthy_percent is not None


@record(frozen=True, kw_only=True, slots=True)
class RepairFacts:
    """What one provisioner's platform does about unhealthy nodes."""

    on: str
    """What happens with repair on (the plan's wording)."""
    off: str | None
    """What ``repair: {enabled: false}`` does; None when the platform repairs regardless (refused then)."""
    tunable: bool = False
    """Whether ``maxParallel`` and ``maxUnhealthyPercent`` reach the platform."""
    source: str = ""


@record(frozen=True, slots=True)
class RepairOverride:
    """One GPU-suited ``nodeRepairConfigOverrides`` entry (botocore eks ``NodeRepairConfigOverrides``)."""

    condition: str
    reason: str
    action: RepairAction
    wait_minutes: int


def repair_problems(spec: GpuPoolSpec, facts: RepairFacts | None, title: str) -> list[Problem]:
    """What the pool's provisioner (``title``) cannot do with its ``repair``."""
    policy = spec.repair
    found: list[Problem] = []
    if facts is None:
        return found
    if not policy.enabled and facts.off is None:
        found.append(Problem("repair.enabled", f"{title} repairs unhealthy nodes itself; a pool cannot turn it off",
                             False, ("true",), f"remove repair ({facts.on})"))  # fmt: skip
    if policy.tuned and not facts.tunable:
        found.append(Problem("repair", f"{title} decides how many nodes it repairs at once", "maxParallel/"
                             "maxUnhealthyPercent", (), "remove maxParallel and maxUnhealthyPercent"))  # fmt: skip
    if policy.max_parallel is not None and policy.max_parallel < 1:
        found.append(Problem("repair.maxParallel", "must be at least 1", policy.max_parallel))
    percent = policy.max_unhealthy_percent
    if percent is not None and not 1 <= percent <= 100:
        found.append(Problem("repair.maxUnhealthyPercent", "must be 1 to 100", percent))
    return found


def repair_summary(spec: GpuPoolSpec, facts: RepairFacts | None) -> str:
    """The pool's repair policy in one line, for the plan."""
    if facts is None:
        return ""
    policy = spec.repair
    if not policy.enabled and facts.off is not None:
        return f"off: {facts.off}"
    if not facts.tunable:
        return f"on: {facts.on}"
    parallel = policy.max_parallel or DEFAULT_MAX_PARALLEL
    percent = policy.max_unhealthy_percent or DEFAULT_MAX_UNHEALTHY_PERCENT
    nodes = "1 node" if parallel == 1 else f"{parallel} nodes"
    return f"on: {facts.on}; {nodes} at a time, none above {percent}% of the pool unhealthy"
