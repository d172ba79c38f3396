"""Validation of a pool's lifecycle settings: upgrade policy, AMI pin, fixed names. Pure.

Facts per cloud:
- EKS managed node groups (botocore ``eks/2017-11-01`` ``NodegroupUpdateConfig``): ``maxUnavailable`` 1-100;
  ``updateStrategy`` ``MINIMAL`` "terminates the old instances before launching the new instances ... useful
  ... with hardware accelerators such as GPUs", ``DEFAULT`` launches new instances first. No surge count.
- AKS (azure-native 3.29.0 ``AgentPoolUpgradeSettingsArgs``): ``maxSurge`` and ``maxUnavailable`` as counts;
  ``maxSurge`` defaults to 10% (spare VMs), ``maxUnavailable`` to 0. No blue-green.
- GKE (pulumi_gcp 10.2.0 ``NodePoolUpgradeSettingsArgs``): ``strategy`` SURGE with ``maxSurge`` /
  ``maxUnavailable``, or BLUE_GREEN with ``blueGreenSettings`` (batch size, batch soak, pool soak; the pool soak
  is at most 7 days: GKE node-pool-upgrade-strategies).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gpuready.core.pool_parts import UPGRADE_STRATEGIES
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.spec_rules import SpecRules
    from gpuready.core.specs import GpuPoolSpec

MAX_SOAK_SECONDS = 7 * 24 * 3600
RELEASE_VERSION = re.compile(r"^[0-9]+\.[0-9]+(\.[0-9]+)?-[0-9A-Za-z]+\Z")
RELEASE_EXAMPLES = "e.g. 1.33.0-20250704 (AL2023) or 1.41.0-5d9ac849 (Bottlerocket)"


def check_upgrade(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    """Every problem with ``upgrade``, ``releaseVersion`` and ``fixedName`` for the pool's cloud."""
    policy = spec.upgrade
    if policy.strategy not in UPGRADE_STRATEGIES:
        problems.append(Problem("upgrade.strategy", "unknown upgrade strategy", policy.strategy, UPGRADE_STRATEGIES))
        return
    for key, value in (("maxUnavailable", policy.max_unavailable), ("maxSurge", policy.max_surge)):
        if value is not None and value < 0:
            problems.append(Problem(f"upgrade.{key}", "must be 0 or more", value))
    if policy.strategy == "rolling":
        if policy.max_surge:
            problems.append(
                Problem("upgrade.maxSurge", "surge nodes need strategy surge", policy.max_surge, (), "strategy: surge")
            )
        if policy.unavailable < 1:
            problems.append(
                Problem("upgrade.maxUnavailable", "a rolling upgrade needs at least 1", policy.max_unavailable)
            )
    if policy.strategy == "surge" and policy.surge < 1 and spec.profile.surge_needs_new_node:
        problems.append(Problem("upgrade.maxSurge", "a surge upgrade needs at least 1", policy.max_surge))
    if policy.strategy == "blue-green":
        _check_blue_green(spec, problems)
    else:
        _check_soak_keys_unused(spec, problems)
    _check_cloud(spec, problems)


def _check_blue_green(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    policy = spec.upgrade
    profile: SpecRules = spec.profile
    if not profile.blue_green:
        problems.append(
            Problem(
                "upgrade.strategy",
                f"blue-green node upgrades are a GKE feature, not {profile.title}'s",
                "blue-green",
                ("rolling", "surge"),
                "for a blue-green move elsewhere, add a second pool, drain the first, then remove it",
            )
        )
    if policy.max_surge is not None or policy.max_unavailable is not None:
        problems.append(Problem("upgrade", "maxSurge and maxUnavailable belong to rolling and surge upgrades"))
    if policy.batch_node_count < 1:
        problems.append(Problem("upgrade.batchNodeCount", "must be 1 or more", policy.batch_node_count))
    for key, value in (("batchSoakSeconds", policy.batch_soak_seconds), ("poolSoakSeconds", policy.pool_soak_seconds)):
        if not 0 <= value <= MAX_SOAK_SECONDS:
            problems.append(Problem(f"upgrade.{key}", f"must be between 0 and {MAX_SOAK_SECONDS} (7 days)", value))


def _check_soak_keys_unused(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    policy = spec.upgrade
    defaults = type(policy)()
    for key, value, default in (
        ("batchNodeCount", policy.batch_node_count, defaults.batch_node_count),
        ("batchSoakSeconds", policy.batch_soak_seconds, defaults.batch_soak_seconds),
        ("poolSoakSeconds", policy.pool_soak_seconds, defaults.pool_soak_seconds),
    ):
        if value != default:
            problems.append(Problem(f"upgrade.{key}", "applies to strategy blue-green only", value))


def _check_cloud(spec: GpuPoolSpec, problems: list[Problem]) -> None:
    profile: SpecRules = spec.profile
    problems.extend(profile.upgrade_problems(spec))
    problems.extend(profile.release_version_problems(spec))
    if not profile.rotates_names and spec.fixed_name is False:
        problems.append(
            Problem(
                "fixedName",
                "AKS pool names are at most 12 characters, so gpuready keeps them fixed",
                False,
                (),
                "remove fixedName; to replace an AKS pool, add a pool with a new name, move workloads, remove the old",
            )
        )
