"""The pool rules that depend on its provisioner (``provisioner`` key): run once by ``pool_rules``. Pure.

An unknown provisioner gets a did-you-mean among the cloud's; one registered on another cloud names that cloud.
Elastic provisioners (Karpenter, EKS Auto Mode, AKS NAP, GKE ComputeClass: nodes made on demand) have no minimum
and no initial size: ``minSize`` is 0 (or absent, in the stack config), ``desiredSize`` is refused, and ``maxSize``
bounds the nodes. Where the provisioner's object has a GPU limit (``Provisioner.limits_gpus``) it is ``gpuLimit``,
else ``maxSize`` x GPUs per node; ``gpuLimit`` holds at least one node's GPUs and at most ``maxSize`` nodes' (so
``maxSize`` stays the bound ``gpuready plan`` and verification report). The pool's name follows the rules of what
the provisioner makes (``Provisioner.name_problems``). Each provisioner adds its own refusals
(``Provisioner.spec_problems``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.capacity import capacity_choice, node_disruption, reservation_rules
from gpuready.core.clouds.registry import cloud_names, cloud_profile
from gpuready.core.health.repair import repair_problems
from gpuready.core.suggest import did_you_mean
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.capacity.interface import Provisioner
    from gpuready.core.catalog.lookup import ResolvedGpu
    from gpuready.core.specs import GpuPoolSpec


def problems(spec: GpuPoolSpec, resolved: ResolvedGpu | None = None) -> list[Problem]:
    """What is wrong with the pool's choice of provisioner, and with the pool under it (``resolved``: its GPUs,
    when they resolved, for the GPU limit)."""
    chosen = _chosen(spec)
    if isinstance(chosen, Problem):
        return [chosen]
    found = _elastic_problems(spec, chosen) if chosen.elastic else _fixed_problems(spec)
    if chosen.limits_gpus and resolved is not None:
        found.extend(_gpu_limit_problems(spec, resolved.gpus))
    found.extend(_node_class_problems(spec, chosen))
    shared, own = reservation_rules.problems(spec, chosen), chosen.spec_problems(spec)
    found.extend(shared)
    found.extend(capacity_choice.problems(spec, chosen, said=[problem.path for problem in (*shared, *own)]))
    found.extend(own)
    found.extend(repair_problems(spec, chosen.repair, _title(spec, chosen)))
    return found


def _node_class_problems(spec: GpuPoolSpec, chosen: Provisioner) -> list[Problem]:
    """The node lifetime and image keys: checked where the provisioner's object has them, refused elsewhere."""
    if chosen.node_lifetime:
        found = node_disruption.problems(spec, chosen.max_node_lifetime_hours)
    else:
        instead = f"remove it: only a Karpenter NodePool has it ({_node_pool_keys(spec)})"
        found = node_disruption.refusals(spec, chosen.key, instead)
    if spec.image_version is not None and chosen.image_version_refusal:
        found.append(Problem("imageVersion", f"is not supported by the {chosen.key} provisioner", spec.image_version,
                             (), chosen.image_version_refusal))  # fmt: skip
    return found


def _node_pool_keys(spec: GpuPoolSpec) -> str:
    profile = spec.profile
    keys = [key for key, made in profile.provisioners.items() if made.node_lifetime]
    return f"provisioner: {' or '.join(keys)}" if keys else f"no provisioner on {profile.title} makes one"


def _title(spec: GpuPoolSpec, provisioner: Provisioner) -> str:
    facts = provisioner.node_facts
    return facts.title if facts is not None else f"the {spec.profile.title} {provisioner.key}"


def is_elastic(spec: GpuPoolSpec) -> bool:
    """Whether the pool's provisioner makes nodes on demand (an unknown one counts as the cloud's default)."""
    return _is_elastic(spec.profile.provisioners, spec.provisioner)


def is_elastic_key(cloud: str, provisioner: str | None) -> bool:
    """Whether the provisioner ``provisioner`` of ``cloud`` (None: the default; unknown: no) is elastic."""
    return _is_elastic(cloud_profile(cloud).provisioners, provisioner)


def _is_elastic(registered: Mapping[str, Provisioner], provisioner: str | None) -> bool:
    key = provisioner if provisioner is not None else next(iter(registered))
    return key in registered and registered[key].elastic


def missing_min_size_problems(cloud: str, provisioner: str | None) -> list[Problem]:
    """``minSize`` left out of a pool entry: fine for an elastic pool (it is 0), required for a fixed one."""
    if is_elastic_key(cloud, provisioner):
        return []
    return [Problem("minSize", "is required for a fixed node pool", None, (),
                    "set minSize (0 scales the pool to zero); only elastic pools may leave it out")]  # fmt: skip


def name_problems(spec: GpuPoolSpec) -> list[Problem]:
    """The pool's name under the rules of what its provisioner makes (an unknown one: the cloud's default)."""
    chosen = _chosen(spec)
    if isinstance(chosen, Problem):
        chosen = next(iter(spec.profile.provisioners.values()))
    return chosen.name_problems(spec)


def _chosen(spec: GpuPoolSpec) -> Provisioner | Problem:
    registered = spec.profile.provisioners
    known = tuple(registered)
    key = spec.provisioner if spec.provisioner is not None else known[0]
    if key in registered:
        return registered[key]
    elsewhere = [cloud for cloud in cloud_names() if key in tuple(cloud_profile(cloud).provisioners)]
    if elsewhere:
        where = " and ".join(cloud_profile(cloud).title for cloud in elsewhere)
        hint = f"{key} makes capacity on {where} only; on {spec.profile.title} use one of the allowed"
        return Problem("provisioner", f"not a provisioner of {spec.cloud}", key, known, hint)
    hint = did_you_mean(key, known) or f"omit provisioner for the default ({known[0]})"
    return Problem("provisioner", f"unknown provisioner on {spec.cloud}", key, known, hint)


def _elastic_keys(spec: GpuPoolSpec) -> str:
    profile = spec.profile
    elastic = [key for key, made in profile.provisioners.items() if made.elastic]
    return ", ".join(elastic) or "none on this cloud"


def _fixed_problems(spec: GpuPoolSpec) -> list[Problem]:
    if spec.gpu_limit is None:
        return []
    return [
        Problem("gpuLimit", "a fixed node pool's GPUs are bounded by maxSize", spec.gpu_limit, (),
                f"remove gpuLimit, or choose an elastic provisioner ({_elastic_keys(spec)})")
    ]  # fmt: skip


def _gpu_limit_problems(spec: GpuPoolSpec, per_node: int) -> list[Problem]:
    limit = spec.gpu_limit
    if limit is None:
        return []
    if limit < per_node:
        return [Problem("gpuLimit", f"is below one node's GPUs ({per_node}): no node could be made", limit, (),
                        f"set gpuLimit to at least {per_node}, or remove it (maxSize x {per_node})")]  # fmt: skip
    if isinstance(spec.max_size, int) and limit > spec.max_size * per_node:
        return [Problem("gpuLimit", f"is above maxSize ({spec.max_size}) nodes of {per_node} GPUs", limit, (),
                        f"raise maxSize to at least {-(-limit // per_node)}, or lower gpuLimit")]  # fmt: skip
    return []


def _elastic_problems(spec: GpuPoolSpec, chosen: Provisioner) -> list[Problem]:
    found: list[Problem] = []
    if spec.min_size != 0:
        found.append(
            Problem(
                "minSize",
                f"must be 0 for an elastic pool ({chosen.key} makes nodes on demand)",
                spec.min_size,
                (),
                "set minSize: 0 or leave it out (or a node-group pool to keep nodes warm); maxSize bounds the nodes",
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
