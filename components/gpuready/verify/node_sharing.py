"""What a GPU node's own labels say it should advertise: shared replicas, MIG partitions, or whole GPUs. Pure.

``gpuready check`` has no stack to compare a node with, so it reads the node's own configuration labels. Each is
the *intent* (what the GPU stack was told to apply); GFD's labels are the *observation* (what it applied), used
only when no intent label says more. Label names and values:

- ``nvidia.com/device-plugin.config``: the key of the device-plugin config the node selects (NVIDIA
  k8s-device-plugin v0.20.0 README, "Updating Per-Node Configuration With a Node Label"; shared reference
  nvidia.md section 4, "User-set configuration labels"). gpuready names its keys ``<mode>-x<replicas>`` with
  ``-renamed`` (``renameByDefault``: ``nvidia.com/gpu.shared``) and ``-strict``/``-lenient``
  (``core.sharing_plan.device_plugin_config_name``), so such a key tells mode, replicas and resource name; a
  key of one's own (``tesla-t4``) tells nothing by itself.
- ``gpuready.io/sharing``: the sharing mode of the gpuready pool (``core.scheduling.pool_labels``).
- ``nvidia.com/mig.config``: the mig-parted layout the MIG manager applies, ``all-disabled`` (the GPU Operator's
  default), ``all-<profile>`` or ``all-balanced`` (upstream/mig-parted/config-default.v0.15.0.yaml);
  ``nvidia.com/mig.config.state`` is its progress (checked in ``resource_checks``).
- GPU Feature Discovery: ``nvidia.com/gpu.replicas``, ``nvidia.com/gpu.sharing-strategy``
  (``none``/``time-slicing``/``mps``) and ``nvidia.com/mig.strategy`` (``none``/``single``/``mixed``)
  (k8s-device-plugin v0.20.0 ``internal/lm``; upstream/cloud-native-docs/output.mig-node-labels.json and
  output.mig-mixed-node-labels.json show them on real nodes).
- A cloud's own sharing labels (``CloudNodeLabels``; GKE's: ``cloud.google.com/gke-gpu-sharing-strategy``
  (``time-sharing``/``mps``), ``cloud.google.com/gke-max-shared-clients-per-gpu`` and
  ``cloud.google.com/gke-gpu-partition-size``; GKE MIG is always advertised ``single``: shared reference clouds.md
  section 4.2).

Without a ``nvidia.com/mig.strategy`` label the MIG strategy is ``mixed`` when the node already shows
``nvidia.com/mig-<profile>`` resources, else ``single`` (the GPU Operator's default ``mig.strategy``, nvidia.md
section 2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Literal

from gpuready.core.catalog.gpus import GpuModel
from gpuready.core.catalog.mig_profiles import mig_config_name
from gpuready.core.quantities import whole_count
from gpuready.core.scheduling import LABEL_DEVICE_PLUGIN_CONFIG, LABEL_MIG_CONFIG, LABEL_SHARING
from gpuready.record import record
from gpuready.verify.node_labels import (
    LABEL_GFD_MIG_STRATEGY,
    LABEL_GFD_REPLICAS,
    LABEL_GFD_SHARING_STRATEGY,
    cloud_node_labels,
)

SharedMode = Literal["time-slicing", "mps"]
MigStrategy = Literal["single", "mixed"]
MIG_DISABLED = "all-disabled"
"""The layout that turns MIG off (the GPU Operator labels MIG-capable nodes with it by default)."""

_CONFIG_NAME = re.compile(
    r"^(?P<mode>time-slicing|mps)-x(?P<replicas>\d+)(?P<renamed>-renamed)?(?:-strict|-lenient)?\Z"
)
_SHARED_MODES: Mapping[str, SharedMode] = {"time-slicing": "time-slicing", "time-sharing": "time-slicing", "mps": "mps"}
"""Mode spellings of the labels: NVIDIA's ``time-slicing`` and GKE's ``time-sharing``, both ``mps``."""


@record(frozen=True, slots=True)
class ConfigName:
    """What a gpuready device-plugin config key says."""

    mode: SharedMode
    replicas: int
    renamed: bool


@record(frozen=True, kw_only=True, slots=True)
class NodeSharing:
    """How the node's labels say its GPUs are shared or partitioned; None where no label says."""

    mode: SharedMode | None = None
    """Time-slicing or MPS, when a label asks for it."""
    replicas: int | None = None
    """Shares per GPU (2 or more)."""
    renamed: bool | None = None
    """Whether shares are advertised as ``nvidia.com/gpu.shared`` (None: unknown, tell from the node's capacity)."""
    mig: bool = False
    """A label asks for MIG."""
    mig_layout: Mapping[str, int] | None = None
    """MIG profile -> instances per GPU, when the layout is a named one of a known GPU."""
    mig_strategy: MigStrategy = "single"
    evidence: tuple[str, ...] = ()
    """The ``key=value`` labels the above was read from, strongest first."""

    def describe(self) -> str:
        """``nvidia.com/device-plugin.config=time-slicing-x4``: the labels, for messages ("" when none)."""
        return ", ".join(self.evidence)


def parse_config_name(name: str) -> ConfigName | None:
    """The mode, replicas and renaming a gpuready device-plugin config key names; None for other keys."""
    match = _CONFIG_NAME.match(name)
    if match is None:
        return None
    replicas = int(match["replicas"])
    if replicas < 2:  # the device plugin refuses fewer ("number of replicas must be >= 2")
        return None
    return ConfigName(_SHARED_MODES[match["mode"]], replicas, match["renamed"] is not None)


def node_sharing(labels: Mapping[str, str], model: GpuModel | None, *, shows_partitions: bool) -> NodeSharing:
    """What ``labels`` ask the node to advertise; ``model`` (when known) resolves named MIG layouts, and
    ``shows_partitions`` (the node advertises per-profile MIG resources) picks the strategy when no label does.
    The evidence lists only the labels that decided: the first source that names the replicas wins (a gpuready
    config key, then the cloud's (GKE's), then GFD's), and a config key of one's own is listed as what asked for
    sharing."""
    evidence: list[str] = []

    def seen(key: str) -> str:
        value = labels.get(key, "")
        if value:
            evidence.append(f"{key}={value}")
        return value

    layout, strategy, mig = _mig(labels, model, shows_partitions, seen)
    config = parse_config_name(seen(LABEL_DEVICE_PLUGIN_CONFIG))
    mode: SharedMode | None = config.mode if config is not None else None
    replicas = config.replicas if config is not None else None
    for strategy_key, replicas_key in (*_cloud_sharing_labels(), (LABEL_GFD_SHARING_STRATEGY, LABEL_GFD_REPLICAS)):
        shares = _shares(labels.get(replicas_key, ""))
        if replicas is not None or shares is None:
            continue
        mode = _SHARED_MODES.get(labels.get(strategy_key, ""))
        if mode is not None:
            seen(strategy_key)
        replicas = shares
        seen(replicas_key)
    own = labels.get(LABEL_SHARING, "")
    if own and own != "none":
        evidence.append(f"{LABEL_SHARING}={own}")
    return NodeSharing(
        mode=(mode or _SHARED_MODES.get(own)) if replicas is not None else None,
        replicas=replicas,
        renamed=config.renamed if config is not None else None,
        mig=mig or own == "mig",
        mig_layout=layout,
        mig_strategy=strategy,
        evidence=tuple(evidence),
    )


def _cloud_sharing_labels() -> list[tuple[str, str]]:
    """(strategy label, clients-per-GPU label) of each cloud that labels the sharing it delivers."""
    return [(c.sharing_strategy, c.shared_clients) for c in cloud_node_labels() if c.shared_clients]


def _partition_labels() -> list[str]:
    """The labels the clouds name a node's MIG partition with (a cloud's MIG is always advertised ``single``)."""
    return [c.partition_size for c in cloud_node_labels() if c.partition_size]


def _mig(
    labels: Mapping[str, str], model: GpuModel | None, shows_partitions: bool, seen: Callable[[str], str]
) -> tuple[Mapping[str, int] | None, MigStrategy, bool]:
    table = model.mig if model is not None else None
    key, partition = next(((k, labels[k]) for k in _partition_labels() if labels.get(k)), ("", ""))
    if partition:
        seen(key)
        count = table.profiles.get(partition) if table is not None else None
        return ({partition: count} if count else None), "single", True
    gfd_strategy = labels.get(LABEL_GFD_MIG_STRATEGY, "")
    mixed = gfd_strategy == "mixed" or (gfd_strategy != "single" and shows_partitions)
    strategy: MigStrategy = "mixed" if mixed else "single"
    config = labels.get(LABEL_MIG_CONFIG, "")
    if not config or config == MIG_DISABLED:
        return None, strategy, gfd_strategy in ("single", "mixed")
    seen(LABEL_MIG_CONFIG)
    if gfd_strategy in ("single", "mixed"):
        seen(LABEL_GFD_MIG_STRATEGY)
    if table is None:
        return None, strategy, True
    if config == "all-balanced":
        return dict(table.balanced), strategy, True
    for profile, count in table.profiles.items():
        if mig_config_name(profile) == config:
            return {profile: count}, strategy, True
    return None, strategy, True  # a custom layout: its profiles are in the MIG manager's ConfigMap


def _shares(value: str) -> int | None:
    count = whole_count(value) if value else None
    return count if count is not None and count > 1 else None
