"""MIG profile tables per GPU family, from NVIDIA mig-parted v0.15.0 ``config-default.yaml``.

Source: NVIDIA/mig-parted@e2d5ad1fc72b9d298ea6d04b885cf2d7dbe56941 ``deployments/systemd/config-default.yaml``
(GPU families from the file's comments and ``device-filter`` PCI IDs; counts are the maximum homogeneous
count of each ``all-<profile>`` layout; ``balanced`` is the ``all-balanced`` layout). The same set is the
GPU Operator v26.7.0 static fallback ConfigMap. ``tests/core/catalog/test_mig_fidelity.py`` re-reads the
upstream file and checks every number here.

Pure data and pure checks: a layout is accepted when every profile exists for the GPU, no profile exceeds
its homogeneous maximum, at most one media-extension profile is used, and the compute slices (7, or 4 on
RTX PRO 6000) and memory slices (8) add up. These are necessary conditions; mig-parted on the node
applies the exact placement rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from gpuready.record import record

MIG_PARTED_SOURCE = "NVIDIA/mig-parted@e2d5ad1 (v0.15.0) deployments/systemd/config-default.yaml"

_PROFILE_RE = re.compile(r"^(?P<compute>[1-7])g\.(?P<memory>\d+)gb(?P<suffix>(\+me|\+me\.all|\+gfx|-me)?)\Z")


@record(frozen=True, slots=True)
class MigTable:
    """The MIG profiles one GPU family offers."""

    family: str
    """Name of the family as mig-parted's comments give it."""
    pci_device_ids: tuple[str, ...]
    """``device-filter`` values (device id + vendor 10DE) of the family."""
    profiles: Mapping[str, int]
    """Profile name -> maximum number of instances of that profile on one GPU."""
    balanced: Mapping[str, int]
    """The ``all-balanced`` layout."""
    compute_slices: int = 7
    """Compute slices of a whole GPU."""
    memory_slices: int = 8
    """Memory slices of a whole GPU."""
    inferred: bool = False
    """True where mig-parted leaves the SKU of some layouts uncommented and they were assigned by memory."""

    def memory_slices_of(self, profile: str) -> int:
        """Memory slices one instance of ``profile`` takes (memory size over the smallest 1g slice)."""
        unit = min(_memory_gb(p) for p in self.profiles if p.startswith("1g.") and _suffix(p) == "")
        return max(1, round(_memory_gb(profile) / unit))


def compute_slices_of(profile: str) -> int:
    """Compute slices one instance of ``profile`` takes (the ``Ng`` part)."""
    match = _PROFILE_RE.match(profile)
    if match is None:
        raise ValueError(f"not a MIG profile name: {profile!r}")
    return int(match["compute"])


def is_profile_name(text: str) -> bool:
    """Whether ``text`` is shaped like a MIG profile name (``1g.10gb``, ``1g.10gb+me``)."""
    return _PROFILE_RE.match(text) is not None


def is_media_extension(profile: str) -> bool:
    """Whether the profile carries the media engines (only one such instance fits on a GPU)."""
    return _suffix(profile) in ("+me", "+me.all")


def layout_problems(table: MigTable, layout: Mapping[str, int]) -> list[str]:
    """Why ``layout`` (profile -> instances per GPU) cannot be applied to one GPU of ``table``; empty if it can."""
    problems: list[str] = []
    for profile, count in layout.items():
        if profile not in table.profiles:
            problems.append(f"profile {profile!r} does not exist on {table.family}")
        elif count < 1:
            problems.append(f"profile {profile!r} needs a count of at least 1")
        elif count > table.profiles[profile]:
            problems.append(f"at most {table.profiles[profile]} x {profile} fit on one GPU, not {count}")
    if problems:
        return problems
    media = sum(count for profile, count in layout.items() if is_media_extension(profile))
    if media > 1:
        problems.append("only one media-extension (+me) instance fits on one GPU")
    compute = sum(compute_slices_of(p) * n for p, n in layout.items())
    if compute > table.compute_slices:
        problems.append(f"the layout needs {compute} compute slices; one GPU has {table.compute_slices}")
    memory = sum(table.memory_slices_of(p) * n for p, n in layout.items())
    if memory > table.memory_slices:
        problems.append(f"the layout needs {memory} memory slices; one GPU has {table.memory_slices}")
    return problems


def mig_config_name(profile: str) -> str:
    """The mig-parted default-table config that puts ``profile`` on every GPU, e.g. ``all-1g.10gb.me``."""
    return "all-" + profile.replace("+", ".")


def _memory_gb(profile: str) -> int:
    match = _PROFILE_RE.match(profile)
    if match is None:
        raise ValueError(f"not a MIG profile name: {profile!r}")
    return int(match["memory"])


def _suffix(profile: str) -> str:
    match = _PROFILE_RE.match(profile)
    return "" if match is None else match["suffix"]


A100_40GB = MigTable(
    family="A100-40GB/A800-40GB",
    pci_device_ids=("0x20B010DE", "0x20B110DE", "0x20F110DE", "0x20F610DE"),
    profiles={
        "1g.5gb": 7,
        "1g.5gb+me": 1,
        "1g.10gb": 4,
        "2g.10gb": 3,
        "3g.20gb": 2,
        "4g.20gb": 1,
        "7g.40gb": 1,
    },
    balanced={"1g.5gb": 2, "2g.10gb": 1, "3g.20gb": 1},
)
A100_80GB_H100_80GB = MigTable(
    family="A100-80GB/A800-80GB/H100-80GB/H800-80GB",
    pci_device_ids=(
        "0x20B210DE",
        "0x20B510DE",
        "0x20F310DE",
        "0x20F510DE",
        "0x233010DE",
        "0x233110DE",
        "0x232210DE",
        "0x232410DE",
    ),
    profiles={
        "1g.10gb": 7,
        "1g.10gb+me": 1,
        "1g.20gb": 4,
        "2g.20gb": 3,
        "3g.40gb": 2,
        "4g.40gb": 1,
        "7g.80gb": 1,
    },
    balanced={"1g.10gb": 2, "2g.20gb": 1, "3g.40gb": 1},
)
H100_NVL_94GB = MigTable(
    family="H100-NVL/H800-NVL (94GB)",
    pci_device_ids=("0x232110DE", "0x233A10DE"),
    profiles={
        "1g.12gb": 7,
        "1g.12gb+me": 1,
        "1g.24gb": 4,
        "2g.24gb": 3,
        "3g.47gb": 2,
        "4g.47gb": 1,
        "7g.94gb": 1,
    },
    balanced={"1g.12gb": 2, "2g.24gb": 1, "3g.47gb": 1},
)
H100_96GB_GH200 = MigTable(
    family="H100-96GB/GH200-96GB/PG506-96GB/H20",
    pci_device_ids=("0x234210DE", "0x233D10DE", "0x20B610DE", "0x232910DE"),
    profiles={"1g.12gb": 7, "1g.12gb+me": 1, "1g.24gb": 4, "2g.24gb": 3, "3g.48gb": 2, "4g.48gb": 1, "7g.96gb": 1},
    balanced={"1g.12gb": 2, "2g.24gb": 1, "3g.48gb": 1},
)
H200_141GB = MigTable(
    # H200 SXM only: mig-parted gives 1g.35gb to 0x2335 alone, so H200 NVL (0x233B) has its own table below.
    family="H200-141GB",
    pci_device_ids=("0x233510DE",),
    profiles={
        "1g.18gb": 7,
        "1g.18gb+me": 1,
        "1g.35gb": 4,
        "2g.35gb": 3,
        "3g.71gb": 2,
        "4g.71gb": 1,
        "7g.141gb": 1,
    },
    balanced={"1g.18gb": 2, "2g.35gb": 1, "3g.71gb": 1},
)
B200_180GB = MigTable(
    family="B200",
    pci_device_ids=("0x290110DE",),
    profiles={
        "1g.23gb": 7,
        "1g.23gb+me": 1,
        "1g.45gb": 4,
        "2g.45gb": 3,
        "3g.90gb": 2,
        "4g.90gb": 1,
        "7g.180gb": 1,
    },
    balanced={"1g.23gb": 2, "2g.45gb": 1, "3g.90gb": 1},
    inferred=True,
)

H200_NVL_141GB = MigTable(
    # all-1g.35gb's device-filter lists 0x2335 (H200 SXM) only, so H200 NVL has no 1g.35gb layout.
    family="H200-NVL",
    pci_device_ids=("0x233B10DE",),
    profiles={"1g.18gb": 7, "1g.18gb+me": 1, "2g.35gb": 3, "3g.71gb": 2, "4g.71gb": 1, "7g.141gb": 1},
    balanced={"1g.18gb": 2, "2g.35gb": 1, "3g.71gb": 1},
)
A30_24GB = MigTable(
    # Four compute and four memory slices (the file's "A30-24GB" layouts).
    family="A30-24GB",
    pci_device_ids=("0x20B710DE",),
    profiles={"1g.6gb": 4, "1g.6gb+me": 1, "2g.12gb": 2, "2g.12gb+me": 1, "4g.24gb": 1},
    balanced={"1g.6gb": 2, "2g.12gb": 1},
    compute_slices=4,
    memory_slices=4,
)
GB200_186GB = MigTable(
    # "GB200 HGX" layouts; 1g.23gb and 1g.23gb+me sit under the "GB200, B200" comments.
    family="GB200",
    pci_device_ids=("0x294110DE",),
    profiles={"1g.23gb": 7, "1g.23gb+me": 1, "1g.47gb": 4, "2g.47gb": 3, "3g.93gb": 2, "4g.93gb": 1, "7g.186gb": 1},
    balanced={"1g.23gb": 2, "2g.47gb": 1, "3g.93gb": 1},
)
B300_269GB = MigTable(
    # The 269 GB layouts are uncommented; assigned by memory size like B200 (the all-balanced B300 entry agrees).
    family="B300",
    pci_device_ids=("0x318210DE",),
    profiles={"1g.34gb": 7, "1g.34gb+me": 1, "1g.67gb": 4, "2g.67gb": 3, "3g.135gb": 2, "4g.135gb": 1, "7g.269gb": 1},
    balanced={"1g.34gb": 2, "2g.67gb": 1, "3g.135gb": 1},
    inferred=True,
)
RTX_PRO_6000_96GB = MigTable(
    # "RTX PRO 6000 Blackwell": four slices; +gfx adds graphics, -me drops the media engines, +me.all takes all.
    family="RTX-PRO-6000-Blackwell",
    pci_device_ids=("0x2BB510DE",),
    profiles={
        "1g.24gb": 4, "1g.24gb+gfx": 4, "1g.24gb-me": 4, "1g.24gb+me.all": 1,
        "2g.48gb": 2, "2g.48gb+gfx": 2, "2g.48gb-me": 2, "2g.48gb+me.all": 1,
        "4g.96gb": 1, "4g.96gb+gfx": 1,
    },
    balanced={"1g.24gb": 2, "2g.48gb": 1},
    compute_slices=4,
    memory_slices=4,
)  # fmt: skip

MIG_TABLES: Mapping[str, MigTable] = {
    t.family: t
    for t in (
        A100_40GB, A100_80GB_H100_80GB, H100_NVL_94GB, H100_96GB_GH200, H200_141GB, H200_NVL_141GB, B200_180GB,
        A30_24GB, GB200_186GB, B300_269GB, RTX_PRO_6000_96GB,
    )
}  # fmt: skip
"""Every MIG table gpuready carries, by family."""
