"""The pool rules that depend on its provisioner (``provisioner`` key): run once by ``pool_rules``. Pure.

An unknown provisioner gets a did-you-mean among the cloud's; one registered on another cloud names that cloud.
Elastic provisioners (Karpenter, EKS Auto Mode, AKS NAP, GKE ComputeClass: nodes made on demand) have no minimum
and no initial size: ``minSize`` must be 0, ``desiredSize`` is refused, and ``maxSize`` bounds the nodes (the
provisioner's GPU limit is ``maxSize`` x GPUs per node). Each provisioner adds its own refusals
(``Provisioner.spec_problems``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from components.core.capacity.registry import default_provisioner, provisioner_named
from components.core.clouds.registry import CLOUDS, cloud_profile
from components.core.config_model.suggest import did_you_mean
from components.errors import Problem

if TYPE_CHECKING:
    from components.core.capacity.interface import Provisioner
    from components.core.specs import GpuPoolSpec


def problems(spec: GpuPoolSpec) -> list[Problem]:
    """What is wrong with the pool's choice of provisioner, and with the pool under it."""
    chosen = _chosen(spec)
    if isinstance(chosen, Problem):
        return [chosen]
    found = _elastic_problems(spec, chosen) if chosen.elastic else []
    found.extend(chosen.spec_problems(spec))
    return found


def _chosen(spec: GpuPoolSpec) -> Provisioner | Problem:
    known = tuple(cloud_profile(spec.cloud).provisioners)
    key = spec.provisioner if spec.provisioner is not None else default_provisioner(spec.cloud)
    if key in known:
        return provisioner_named(spec.cloud, key)
    elsewhere = [cloud for cloud in CLOUDS if key in tuple(cloud_profile(cloud).provisioners)]
    if elsewhere:
        where = " and ".join(cloud_profile(cloud).title for cloud in elsewhere)
        hint = f"{key} makes capacity on {where} only; on {cloud_profile(spec.cloud).title} use one of the allowed"
        return Problem("provisioner", f"not a provisioner of {spec.cloud}", key, known, hint)
    hint = did_you_mean(key, known) or f"omit provisioner for the default ({known[0]})"
    return Problem("provisioner", f"unknown provisioner on {spec.cloud}", key, known, hint)


def _elastic_problems(spec: GpuPoolSpec, chosen: Provisioner) -> list[Problem]:
    found: list[Problem] = []
    if spec.min_size != 0:
        found.append(
            Problem(
                "minSize",
                f"must be 0 for an elastic pool ({chosen.key} makes nodes on demand)",
                spec.min_size,
                (),
                "set minSize: 0 (or a node-group pool to keep nodes warm); maxSize bounds the nodes",
            )
        )
    if spec.desired_size is not None:
        found.append(
            Problem(
                "desiredSize",
                f"an elastic pool has no desired size ({chosen.key} makes nodes when pods need them)",
                spec.desired_size,
                (),
                "remove desiredSize",
            )
        )
    return found
