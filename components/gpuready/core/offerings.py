"""Whether the region a pool goes to offers its instance type: a warning, never an error. Pure.

Each cloud that has a machine-readable source of its per-region offerings records the catalog's part of it in its
package (``gpuready/<cloud>/offerings.json``: ``source``, ``date`` and region -> offered types; EKS's comes from
the EC2 offerings moto bundles, ``tests/fidelity/eks_offerings.py``). A cloud without one says what is not
checked (``CloudProfile.offerings_unchecked``). The data is a snapshot: a type missing from a region may have
arrived since, so the plan goes on and only warns, naming the regions that offer the type.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources

from gpuready.record import record


@record(frozen=True, slots=True)
class Offerings:
    """Which regions offer which of the catalog's instance types, from one dated source."""

    source: str
    """Where the data comes from and how old it is (``... moto 5.2.5 ..., released 2026-10-27``)."""
    date: str
    regions: Mapping[str, frozenset[str]]
    """Region -> instance types offered there (only the catalog's types)."""

    def offering(self, instance_type: str) -> list[str]:
        """The regions in the data that offer ``instance_type``, sorted."""
        return sorted(region for region, types in self.regions.items() if instance_type in types)


@cache
def load(package: str) -> Offerings:
    """The recorded offerings of ``package`` (``gpuready.eks``): its ``offerings.json``."""
    data = json.loads(resources.files(package).joinpath("offerings.json").read_text(encoding="utf-8"))
    regions = {region: frozenset(types) for region, types in data["regions"].items()}
    return Offerings(source=data["source"], date=data["date"], regions=regions)


def offering_warning(title: str, instance_type: str, region: str | None, offerings: Offerings) -> str | None:
    """The warning when ``region`` does not offer ``instance_type`` according to ``offerings`` (or the data does not
    know the region); None when it does, or when no region is configured (nothing to check)."""
    if not region:
        return None
    offering = offerings.offering(instance_type)
    where = f"regions offering it: {', '.join(offering)}" if offering else "no region in the data offers it"
    if region not in offerings.regions:
        return (
            f"{title} region {region!r} is not in gpuready's offerings data, so whether it offers {instance_type} "
            f"is not checked; {where} ({offerings.source})"
        )
    if instance_type in offerings.regions[region]:
        return None
    return (
        f"{title} region {region!r} does not offer {instance_type}, so creating the pool would fail; {where} "
        f"({offerings.source}; offerings added since are not known to gpuready)"
    )
