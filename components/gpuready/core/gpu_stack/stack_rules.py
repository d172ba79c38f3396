"""Whether a GPU stack fits a stack's pools: every contradiction, as problems, before anything registers. Pure.

Rules: each pool's platform must fit the stack (``ownership.pool_fit``: cloud, image, driver owner and
provisioner); sharing and MIG must have someone to apply them (time-slicing/MPS by NVIDIA's device plugin, MIG
layouts by the GPU Operator's MIG manager); MPS under
the plugin chart needs GPU Feature Discovery (it writes ``nvidia.com/mps.capable``, which the MPS daemon
selects on: NVIDIA/k8s-device-plugin#634); one GPU Operator installs the driver on all its nodes or on none
(``driver.enabled`` and the RuntimeClass are cluster-wide); every MIG pool NVIDIA's plugin serves shares one
``mig.strategy``, because the operator passes it to the plugin as an environment variable that overrides any
per-node config (nvidia.md section 8, item 13).

A pool is a device-plugin pool or a DRA pool (its ``advertise`` key), never both: the DRA driver's GPU plugin and
NVIDIA's device plugin must not serve one node (DRA chart 0.4.0 ``templates/validation.yaml``: "this DRA driver
cannot be deployed alongside the standard GPU device plugin on the same node"). So kinds ``dra-driver`` and
``gpu-operator-dra`` (the operator's GPUCluster, whose DRA kubelet plugin runs on every GPU node the operator
labels: ``nvidia.com/gpu.deploy.dra-driver``) serve DRA pools only and refuse device-plugin pools, and the
device-plugin kinds refuse DRA pools (``_advertise_problems``); a cluster that has both runs two stacks, whose
DaemonSets keep apart by the DRA pools' labels (a device-plugin pool beside a GPUCluster must carry
``nvidia.com/gpu.deploy.dra-driver=false``, which the operator leaves in place: docs/gpu-stack.md "DRA").

Two more (each planned with exit 0 before, each refused by the real system):

- MPS and MIG strategy ``mixed`` under one stack: NVIDIA's device plugin v0.20.0 refuses to start with an MPS
  sharing config and ``--mig-strategy=mixed`` (``validateFlags`` in ``cmd/nvidia-device-plugin/main.go``: "using
  --mig-strategy=mixed is not supported with MPS"), and the strategy reaches every plugin pod of the cluster as
  the ``MIG_STRATEGY`` environment variable (the operator's ``mig.strategy``, the plugin chart's ``migStrategy``),
  which overrides the per-node config file: the MPS nodes' plugin would crash-loop.
- One GPU Operator installing the driver on pools of different OS images: v26.7.0 picks the driver image's OS tag
  for the whole cluster from the first node labelled ``nvidia.com/gpu.present=true`` (``getGPUNodeOSInfo`` in
  ``controllers/state_manager.go``: ``client.Limit(1)``, then its NFD ``os_release.ID`` and ``VERSION_ID``
  labels), so the nodes of the other image get a driver container built for the wrong OS. Per-pool drivers need
  the operator's NVIDIADriver CRD, which gpuready does not drive yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.gpu_stack import ownership
from gpuready.core.gpu_stack.kind import GpuStackKind
from gpuready.core.gpu_stack.mig_pools import mig_strategy, nvidia_mig_pools
from gpuready.core.specs import GpuPoolSpec, GpuSharing, MigPartitioning
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.gpu_stack.stack_spec import GpuStackSpec

_KIND = "gpuStack.kind"


def stack_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    """Every way ``spec`` contradicts ``pools`` (empty when it fits)."""
    problems: list[Problem] = _advertise_problems(pools, spec)
    fitting: list[GpuPoolSpec] = []
    for pool in pools:
        verdict = ownership.pool_fit(pool, spec.stack_kind)
        if verdict.ok:
            fitting.append(pool)
            continue
        problems.append(
            Problem(_KIND, f"pool {pool.name!r} ({_platform(pool)}): {verdict.summary}", spec.kind, (), verdict.hint)
        )
    problems.extend(_sharing_problems(fitting, spec))
    if spec.stack_kind.driver_installer:
        problems.extend(_driver_split_problems(fitting, spec.stack_kind))
        problems.extend(_driver_os_problems(fitting, spec.stack_kind))
    problems.extend(_strategy_problems(fitting, spec))
    problems.extend(_mps_mixed_problems(fitting, spec))
    for pool in pools:  # what each pool's fabric needs of the stack (AKS InfiniBand: the GPU Operator)
        problems.extend(pool.profile.fabric.stack_problems(pool, spec.kind))
    return problems


def _sharing_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    problems: list[Problem] = []
    for pool in pools:
        sharing = pool.sharing
        if sharing is None:
            continue
        where = pool.resolved.delivery
        kind = spec.stack_kind
        if where == "mig-manager" and kind.installs_chart and not kind.mig_manager:
            problems.append(
                Problem(
                    _KIND,
                    f"pool {pool.name!r} asks for a MIG layout, which only the GPU Operator's MIG manager applies; the "
                    f"{spec.kind} chart cannot partition GPUs" + kind.mig_note,
                    spec.kind,
                    (),
                    "use gpuStack.kind gpu-operator, or partition the GPUs yourself and use external",
                )
            )
        if isinstance(sharing, GpuSharing) and sharing.mode == "mps" and kind.gfd == "setting" and not spec.gfd:
            problems.append(
                Problem(
                    "gpuStack.gfd",
                    f"pool {pool.name!r} shares by MPS, whose control daemon only runs on nodes GPU Feature Discovery "
                    "labels nvidia.com/mps.capable=true (NVIDIA/k8s-device-plugin#634)",
                    spec.gfd,
                    (),
                    "set gfd: true",
                )
            )
    return problems


def _advertise_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    """A kind serves the pools of one advertiser (``GpuStackKind.serves``; ``external``: any)."""
    serves = spec.stack_kind.serves
    if serves is None:
        return []
    problems: list[Problem] = []
    for pool in pools:
        advertiser = pool.resolved.advertiser
        if advertiser.key == serves:
            continue
        if advertiser is DYNAMIC_RESOURCES:
            why = "advertises its GPUs by DRA (advertise: dra), and a device plugin must not serve a DRA node"
            hint = (
                "use gpuStack.kind dra-driver or gpu-operator-dra (in a stack of DRA pools), or drop the pool's "
                "advertise: dra"
            )
        else:
            why = (
                "is a device-plugin pool; the DRA driver's GPU plugin must not share its nodes with a device plugin "
                "(DRA chart templates/validation.yaml)" + spec.stack_kind.plugin_note
            )
            hint = (
                "give the pool advertise: dra, or serve device-plugin pools from a gpu-operator or device-plugin stack"
            )
        problems.append(Problem(_KIND, f"pool {pool.name!r} {why}", spec.kind, (), hint))
    return problems


def _driver_split_problems(pools: Sequence[GpuPoolSpec], kind: GpuStackKind) -> list[Problem]:
    by_owner: dict[bool, list[str]] = {}
    for pool in pools:
        if pool.resolved.platform_plugin != "nvidia":
            continue
        owner = ownership.pool_fit(pool, kind).operator_driver
        by_owner.setdefault(owner, []).append(pool.name)
    if len(by_owner) < 2:
        return []
    return [
        Problem(
            "nodePools",
            "one GPU Operator installs the driver on all its nodes or on none (driver.enabled and its RuntimeClass "
            f"are cluster-wide); pools {by_owner[False]} have the cloud's driver, pools {by_owner[True]} need the "
            "operator's",
            None,
            (),
            "give every pool the same driver owner (driver: cloud or driver: operator)",
        )
    ]


def _driver_os_problems(pools: Sequence[GpuPoolSpec], kind: GpuStackKind) -> list[Problem]:
    by_image: dict[str, list[str]] = {}
    for pool in pools:
        if pool.resolved.platform_plugin != "nvidia":
            continue
        if ownership.pool_fit(pool, kind).operator_driver:
            by_image.setdefault(pool.image_family, []).append(pool.name)
    if len(by_image) < 2:
        return []
    groups = "; ".join(f"{image}: {names}" for image, names in sorted(by_image.items()))
    return [
        Problem(
            "nodePools",
            "one GPU Operator that installs the driver builds it for one OS image, taken from the first GPU node "
            f"(GPU Operator v26.7.0 getGPUNodeOSInfo); its driver pools use different images ({groups}), so the "
            "nodes of the other image would get a driver for the wrong OS",
            sorted(by_image),
            (),
            "give every driver: operator pool the same image, or let the cloud install the driver (driver: cloud) "
            "on the pools of the other image",
        )
    ]


def _mps_mixed_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    if not spec.installs_chart or mig_strategy(pools) != "mixed":
        return []
    mps = [
        p.name
        for p in pools
        if isinstance(p.sharing, GpuSharing)
        and p.sharing.mode == "mps"
        and p.resolved.delivery == "device-plugin-config"
    ]
    if not mps:
        return []
    mixed = [p.name for p in nvidia_mig_pools(pools)]
    return [
        Problem(
            "nodePools",
            f"pools {mps} share by MPS while MIG pools {mixed} use strategy mixed; NVIDIA's device plugin refuses "
            "MPS with --mig-strategy=mixed (v0.20.0 validateFlags), and the stack passes one MIG strategy to every "
            "plugin pod, so the MPS nodes' plugin would crash-loop",
            "mixed",
            ("single",),
            "give the MIG pools strategy: single (one profile per pool), share those GPUs by time-slicing instead "
            "of MPS, or put the MPS pools in another cluster",
        )
    ]


def _strategy_problems(pools: Sequence[GpuPoolSpec], spec: GpuStackSpec) -> list[Problem]:
    if not spec.installs_chart:
        return []
    by_strategy: dict[str, list[str]] = {}
    for pool in nvidia_mig_pools(pools):
        assert isinstance(pool.sharing, MigPartitioning)
        by_strategy.setdefault(pool.sharing.strategy, []).append(pool.name)
    if len(by_strategy) < 2:
        return []
    return [
        Problem(
            "nodePools",
            "NVIDIA's device plugin takes one MIG strategy for the whole cluster (the chart passes it as an "
            f"environment variable that overrides per-node configs); pools {by_strategy['single']} use single, "
            f"pools {by_strategy['mixed']} use mixed",
            None,
            ("single", "mixed"),
            "give every MIG pool strategy: mixed (it also serves one-profile layouts, as nvidia.com/mig-<profile>)",
        )
    ]


def _platform(pool: GpuPoolSpec) -> str:
    made_by = f", provisioner: {pool.provisioner}" if pool.provisioner else ""
    return f"{pool.cloud} {pool.image_family}, driver: {pool.driver}{made_by}"
