"""gpuready's MIG tables against NVIDIA mig-parted v0.15.0 ``config-default.yaml`` (read from ../shared).

Source: ``../shared/reference/upstream/mig-parted/config-default.v0.15.0.yaml`` (NVIDIA/mig-parted@e2d5ad1,
``deployments/systemd/config-default.yaml``; provenance in that snapshot's ``SOURCES.md``).
The file is parsed here, independently of ``gpuready.core.catalog.mig_profiles``.

How an upstream layout is matched to a gpuready table (``MigTable``):

* A layout entry with a ``device-filter`` applies to exactly the listed PCI ids; it belongs to a table when
  it lists one of the table's ``pci_device_ids``. This is authoritative and is how ``all-balanced``,
  ``all-1g.10gb`` and ``all-1g.35gb`` are matched.
* A layout without a device filter applies to every GPU, and the file names its GPUs only in comments,
  which also run on over later, uncommented layouts. Those layouts are matched by MIG geometry instead: a
  table whose whole GPU has ``M`` GB (its ``7g.<M>gb`` profile) has the 1g profiles ``M/8`` and ``M/4``, 2g
  ``M/4``, 3g and 4g ``M/2`` and 7g ``M``, each rounded half up to a whole GB (this reproduces every
  profile name in the file, e.g. 94 GB: 1g.12gb, 2g.24gb, 3g.47gb; 141 GB: 1g.18gb, 1g.35gb, 3g.71gb),
  and its one media-extension profile (``+me``) is the ``M/8`` 1g profile. Suffixes other than ``+me`` (``+gfx``,
  ``-me``, ``+me.all``) exist only on 4-slice RTX PRO GPUs, which gpuready does not carry.
* ``test_geometry_matching_agrees_with_upstream_comments`` checks that this rule reproduces the GPU
  names of every comment that sits directly above a layout, using ``COMMENT_NAMES`` below.

A profile check is per PCI id: gpuready's count must be what mig-parted applies to every GPU of the table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import MIG_TABLES, MigTable
from tests.upstream import upstream_text

CONFIG = "mig-parted/config-default.v0.15.0.yaml"

COMMENT_NAMES: Mapping[str, frozenset[str]] = {
    "A100-40GB/A800-40GB": frozenset({"A100-40GB", "A800-40GB"}),
    "A100-80GB/A800-80GB/H100-80GB/H800-80GB": frozenset({"A100-80GB", "A800-80GB", "H100-80GB", "H800-80GB"}),
    "H100-NVL/H800-NVL (94GB)": frozenset({"H100 NVL", "H800 NVL"}),
    "H100-96GB/GH200-96GB/PG506-96GB/H20": frozenset({"H100-96GB", "GH200", "PG506-96GB", "H20"}),
    "H200-141GB": frozenset({"H200-141GB", "H200 141GB", "H200 NVL"}),
    # The file's "H200-141GB" comments name the 141 GB geometry, which H200 NVL shares.
    "H200-NVL": frozenset({"H200-141GB", "H200 141GB", "H200 NVL"}),
    "B200": frozenset({"B200"}),
    "A30-24GB": frozenset({"A30-24GB"}),
    "GB200": frozenset({"GB200", "GB200 HGX"}),
    "B300": frozenset({"B300"}),
    "RTX-PRO-6000-Blackwell": frozenset({"RTX PRO 6000 Blackwell"}),
}
"""gpuready table family -> how mig-parted's comments name its GPUs (``GH200 144G HBM3e`` is another GPU)."""

UNMATCHED_LAYOUTS = frozenset(
    {
        # GH200 144G HBM3e
        "all-1g.36gb", "all-2g.36gb", "all-3g.72gb", "all-4g.72gb", "all-7g.144gb",
        # GB300 (278 GB)
        "all-1g.70gb", "all-2g.70gb", "all-3g.139gb", "all-4g.139gb", "all-7g.278gb",
        # Not attributable to one GPU: the GB300-sized 1g +me, and the 95/189 GB layouts that no comment names.
        "all-1g.35gb.me", "all-3g.95gb", "all-4g.95gb", "all-7g.189gb",
    }
)  # fmt: skip
"""Single-profile upstream layouts that belong to none of gpuready's tables, and why."""

_NOT_PARTITIONS = frozenset({"all-disabled", "all-enabled", "all-balanced"})
_PROFILE = re.compile(r"^(?P<compute>\d)g\.(?P<memory>\d+)gb(?P<suffix>.*)$")
_MEMORY_SLICES = {1: (1, 2), 2: (2,), 3: (4,), 4: (4,), 7: (8,)}
_KEY_LINE = re.compile(r"^  (?P<key>[A-Za-z0-9][A-Za-z0-9.+-]*):\s*$")
_COMMENT_LINE = re.compile(r"^  # ?(?P<text>.*\S)\s*$")


@dataclass(frozen=True)
class Entry:
    """One item of a mig-parted config: the GPUs it applies to and the MIG devices it creates on each."""

    device_filter: frozenset[str] | None
    """Upper-cased PCI ids, or None when the entry applies to every GPU."""
    mig_devices: Mapping[str, int]


@dataclass(frozen=True)
class Layout:
    name: str
    entries: tuple[Entry, ...]
    comment: str | None
    """The last top-level comment above the layout (mig-parted's GPU naming)."""
    commented_directly: bool
    """Whether that comment sits directly above this layout, rather than above an earlier one."""

    def for_device(self, pci_id: str) -> dict[str, int] | None:
        """MIG devices mig-parted creates on a GPU with ``pci_id``, or None when no entry applies."""
        applying = [e for e in self.entries if e.device_filter is None or pci_id.upper() in e.device_filter]
        assert len(applying) <= 1, f"{self.name}: several entries apply to {pci_id}"
        return dict(applying[0].mig_devices) if applying else None

    def single_profile(self) -> tuple[str, int] | None:
        """(profile, count) of a filter-less layout with one entry of one profile, else None."""
        if len(self.entries) != 1 or self.entries[0].device_filter is not None:
            return None
        devices = self.entries[0].mig_devices
        return next(iter(devices.items())) if len(devices) == 1 else None


def _entry(raw: Mapping[str, Any]) -> Entry:
    assert raw.get("devices") == "all", raw
    device_filter = raw.get("device-filter")
    if isinstance(device_filter, str):
        device_filter = [device_filter]
    return Entry(
        device_filter=None if device_filter is None else frozenset(str(d).upper() for d in device_filter),
        mig_devices={str(k): int(v) for k, v in (raw.get("mig-devices") or {}).items()},
    )


def _comments(text: str) -> dict[str, tuple[str | None, bool]]:
    """Layout name -> (comment group it sits under, whether the comment is directly above it)."""
    found: dict[str, tuple[str | None, bool]] = {}
    current: str | None = None
    previous_was_comment = False
    for line in text.splitlines():
        comment, key = _COMMENT_LINE.match(line), _KEY_LINE.match(line)
        if comment:
            current, previous_was_comment = comment["text"], True
        elif key:
            found[key["key"]] = (current, previous_was_comment)
            previous_was_comment = False
        elif line.strip():
            previous_was_comment = False
    return found


def load_upstream() -> dict[str, Layout]:
    text = upstream_text(CONFIG)
    document = yaml.safe_load(text)
    assert document["version"] == "v1"
    comments = _comments(text)
    layouts: dict[str, Layout] = {}
    for name, entries in document["mig-configs"].items():
        comment, direct = comments[name]
        layouts[name] = Layout(name, tuple(_entry(e) for e in entries), comment, direct)
    return layouts


UPSTREAM = load_upstream()


def _family_memory_gb(table: MigTable) -> int:
    whole = [p for p in table.profiles if p.startswith(f"{table.compute_slices}g.") and p.endswith("gb")]
    assert len(whole) == 1, f"{table.family}: expected one 7g profile, got {whole}"
    match = _PROFILE.match(whole[0])
    assert match is not None
    return int(match["memory"])


def _fits_geometry(profile: str, table: MigTable) -> bool:
    """Whether ``profile`` is one of the MIG profiles of a GPU with the table's memory and slices."""
    if table.compute_slices == 4:
        return _fits_four_slice_geometry(profile, table)
    match = _PROFILE.match(profile)
    if match is None or match["suffix"] not in ("", "+me"):
        return False
    compute, memory = int(match["compute"]), int(match["memory"])
    if match["suffix"] == "+me":
        if compute != 1:
            return False
        slices: tuple[int, ...] = (1,)  # the one media-extension instance has the smallest memory slice
    else:
        slices = _MEMORY_SLICES.get(compute, ())
    whole = _family_memory_gb(table)
    return any(memory == (whole * s + 4) // 8 for s in slices)  # whole * s / 8, rounded half up


def _fits_four_slice_geometry(profile: str, table: MigTable) -> bool:
    """4-slice GPUs (A30, RTX PRO 6000): an Ng profile has N of 4 memory slices; any suffix may apply."""
    match = _PROFILE.match(profile)
    if match is None or int(match["compute"]) not in (1, 2, 4):
        return False
    return int(match["memory"]) == _family_memory_gb(table) * int(match["compute"]) // 4


def _belongs(layout: Layout, table: MigTable) -> bool:
    """Whether mig-parted's ``layout`` is meant for the table's GPUs (see the module docstring)."""
    if layout.name in _NOT_PARTITIONS:
        return False
    if any(e.device_filter is not None for e in layout.entries):
        ids = {p.upper() for p in table.pci_device_ids}
        return any(e.device_filter is not None and e.device_filter & ids for e in layout.entries)
    single = layout.single_profile()
    return single is not None and _fits_geometry(single[0], table)


def _table_id(table: MigTable) -> str:
    return re.sub(r"[^A-Za-z0-9.+-]+", "_", table.family).strip("_")


def _params(cases: list[tuple[MigTable, str]], known: Mapping[tuple[str, str], str]) -> list[Any]:
    """``pytest.param`` per case, xfail(strict) where ``known`` gives a reason."""
    params = []
    for table, item in cases:
        reason = known.get((table.family, item))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(table, item, id=f"{_table_id(table)}-{item}", marks=marks))
    return params


KNOWN_COUNT_MISMATCHES: Mapping[tuple[str, str], str] = {}
KNOWN_MISSING_LAYOUTS: Mapping[tuple[str, str], str] = {
    ("RTX-PRO-6000-Blackwell", "all-1g.24gb.me"): (
        "1g.24gb+me sits under the H100 NVL comment; the RTX PRO 6000 layouts use +me.all, not +me"
    ),
}

PROFILE_CASES = [(t, p) for t in MIG_TABLES.values() for p in t.profiles]
UPSTREAM_CASES = [(t, name) for t in MIG_TABLES.values() for name, lay in UPSTREAM.items() if _belongs(lay, t)]


@pytest.mark.parametrize(("table", "profile"), _params(PROFILE_CASES, KNOWN_COUNT_MISMATCHES))
def test_every_gpuready_profile_is_upstream_with_the_same_count(table: MigTable, profile: str) -> None:
    name = mig_profiles.mig_config_name(profile)
    assert name in UPSTREAM, f"mig-parted has no layout {name}"
    for pci_id in table.pci_device_ids:
        assert UPSTREAM[name].for_device(pci_id) == {profile: table.profiles[profile]}, pci_id


@pytest.mark.parametrize(("table", "layout"), _params(UPSTREAM_CASES, KNOWN_MISSING_LAYOUTS))
def test_every_upstream_layout_of_the_family_is_in_the_table(table: MigTable, layout: str) -> None:
    for pci_id in table.pci_device_ids:
        devices = UPSTREAM[layout].for_device(pci_id)
        if devices is None:  # a device-filtered layout that lists only some of the family's GPUs
            continue
        assert len(devices) == 1, devices
        ((profile, count),) = devices.items()
        assert table.profiles.get(profile) == count, f"{pci_id}: upstream {profile} x{count}"


@pytest.mark.parametrize("table", MIG_TABLES.values(), ids=_table_id)
def test_balanced_matches_upstream_all_balanced_for_every_pci_id(table: MigTable) -> None:
    for pci_id in table.pci_device_ids:
        assert UPSTREAM["all-balanced"].for_device(pci_id) == dict(table.balanced), pci_id


@pytest.mark.parametrize("table", MIG_TABLES.values(), ids=_table_id)
def test_mig_config_names_are_upstream_config_names(table: MigTable) -> None:
    assert all(e.device_filter is not None for e in UPSTREAM["all-balanced"].entries)
    missing = [
        mig_profiles.mig_config_name(p) for p in table.profiles if mig_profiles.mig_config_name(p) not in UPSTREAM
    ]
    assert missing == []


def test_every_table_is_matched_and_pci_ids_are_upstream() -> None:
    upstream_ids = {i for lay in UPSTREAM.values() for e in lay.entries for i in e.device_filter or ()}
    for table in MIG_TABLES.values():
        assert {p.upper() for p in table.pci_device_ids} <= upstream_ids, table.family
        assert any(t is table for t, _ in UPSTREAM_CASES), table.family
    assert set(COMMENT_NAMES) == set(MIG_TABLES)


def test_geometry_matching_agrees_with_upstream_comments() -> None:
    """For every layout with its own comment, the tables matched are exactly the GPUs the comment names."""
    checked = 0
    for layout in UPSTREAM.values():
        if not layout.commented_directly or layout.comment is None or layout.name in _NOT_PARTITIONS:
            continue
        named = {n.strip() for n in layout.comment.split(",")}
        by_comment = {f for f, names in COMMENT_NAMES.items() if names & named}
        by_rule = {t.family for t in MIG_TABLES.values() if _belongs(layout, t)}
        assert by_rule == by_comment, layout.name
        checked += 1
    assert checked >= 10


def test_layouts_no_table_claims_are_the_documented_ones() -> None:
    partitions = {n for n, lay in UPSTREAM.items() if n not in _NOT_PARTITIONS}
    claimed = {name for _, name in UPSTREAM_CASES}
    assert partitions - claimed == UNMATCHED_LAYOUTS


def test_parser_reads_known_upstream_facts() -> None:
    """Guards the parser: facts read off the upstream file by eye."""
    assert UPSTREAM["all-1g.10gb"].for_device("0x20b010de") == {"1g.10gb": 4}
    assert UPSTREAM["all-1g.10gb"].for_device("0x233010DE") == {"1g.10gb": 7}
    assert UPSTREAM["all-balanced"].for_device("0x20B710DE") == {"1g.6gb": 2, "2g.12gb": 1}
    assert UPSTREAM["all-1g.35gb"].for_device("0x233B10DE") is None
    assert UPSTREAM["all-7g.80gb"].single_profile() == ("7g.80gb", 1)
    assert UPSTREAM["all-2g.20gb"].comment == "H100-80GB, H800-80GB, A100-80GB, A800-80GB"
    assert not UPSTREAM["all-2g.20gb"].commented_directly
    assert UPSTREAM["all-1g.20gb"].commented_directly
