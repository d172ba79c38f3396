"""MIG profile tables and layout rules (mig-parted v0.15.0 config-default.yaml)."""

from __future__ import annotations

import pytest

from gpuready.core.advertisers.extended_resources import mig_resource_name
from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import (
    A100_40GB,
    A100_80GB_H100_80GB,
    B200_180GB,
    H100_96GB_GH200,
    H100_NVL_94GB,
    H200_141GB,
    MIG_TABLES,
    MigTable,
)

TABLES = sorted(MIG_TABLES.values(), key=lambda t: t.family)
TABLE_IDS = [t.family for t in TABLES]


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_all_balanced_layout_is_valid(table: MigTable) -> None:
    assert mig_profiles.layout_problems(table, table.balanced) == []


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_every_homogeneous_layout_at_its_maximum_is_valid(table: MigTable) -> None:
    for profile, count in table.profiles.items():
        assert mig_profiles.layout_problems(table, {profile: count}) == [], profile


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_one_more_than_the_maximum_is_refused(table: MigTable) -> None:
    for profile, count in table.profiles.items():
        problems = mig_profiles.layout_problems(table, {profile: count + 1})
        assert problems == [f"at most {count} x {profile} fit on one GPU, not {count + 1}"]


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_whole_gpu_profile_takes_every_slice(table: MigTable) -> None:
    whole = next(p for p in table.profiles if p.startswith(f"{table.compute_slices}g.") and p.endswith("gb"))
    assert mig_profiles.compute_slices_of(whole) == table.compute_slices
    assert table.memory_slices_of(whole) == table.memory_slices


@pytest.mark.parametrize(
    ("table", "layout"),
    [
        (A100_80GB_H100_80GB, {"4g.40gb": 1, "3g.40gb": 1}),
        (A100_80GB_H100_80GB, {"2g.20gb": 3, "1g.10gb": 1}),
        (A100_80GB_H100_80GB, {"1g.10gb+me": 1, "1g.10gb": 6}),
        (A100_80GB_H100_80GB, {"1g.20gb": 4}),
        (A100_40GB, {"4g.20gb": 1, "3g.20gb": 1}),
        (A100_40GB, {"2g.10gb": 3, "1g.5gb": 1}),
        (A100_40GB, {"3g.20gb": 1, "2g.10gb": 2}),
        (H100_NVL_94GB, {"4g.47gb": 1, "3g.47gb": 1}),
        (H200_141GB, {"3g.71gb": 2}),
        (B200_180GB, {"4g.90gb": 1, "2g.45gb": 1, "1g.23gb": 1}),
        (H100_96GB_GH200, {"3g.48gb": 1, "1g.24gb": 2}),
    ],
)
def test_layout_that_fits_is_valid(table: MigTable, layout: dict[str, int]) -> None:
    assert mig_profiles.layout_problems(table, layout) == []


@pytest.mark.parametrize(
    ("table", "layout", "reason"),
    [
        (A100_40GB, {"1g.10gb.x": 1}, "profile '1g.10gb.x' does not exist on A100-40GB"),
        (A100_40GB, {"3g.40gb": 1}, "profile '3g.40gb' does not exist"),
        (A100_80GB_H100_80GB, {"1g.5gb": 1}, "profile '1g.5gb' does not exist"),
        (A100_80GB_H100_80GB, {"1g.10gb": 8}, "at most 7 x 1g.10gb fit on one GPU, not 8"),
        (A100_40GB, {"1g.10gb": 5}, "at most 4 x 1g.10gb fit on one GPU, not 5"),
        (A100_80GB_H100_80GB, {"1g.10gb": 0}, "needs a count of at least 1"),
        (A100_80GB_H100_80GB, {"1g.10gb+me": 2}, "at most 1 x 1g.10gb+me fit"),
        (A100_40GB, {"4g.20gb": 1, "2g.10gb": 2}, "the layout needs 8 compute slices; one GPU has 7"),
        (A100_80GB_H100_80GB, {"4g.40gb": 1, "3g.40gb": 1, "1g.10gb": 1}, "needs 8 compute slices"),
        (A100_40GB, {"3g.20gb": 2, "1g.5gb": 1}, "the layout needs 9 memory slices; one GPU has 8"),
        (A100_80GB_H100_80GB, {"3g.40gb": 2, "1g.10gb": 1}, "needs 9 memory slices"),
        (A100_80GB_H100_80GB, {"1g.20gb": 4, "1g.10gb": 1}, "needs 9 memory slices"),
        (H200_141GB, {"3g.71gb": 2, "1g.18gb": 1}, "needs 9 memory slices"),
    ],
)
def test_layout_that_does_not_fit_is_refused(table: MigTable, layout: dict[str, int], reason: str) -> None:
    problems = mig_profiles.layout_problems(table, layout)
    assert any(reason in p for p in problems), problems


# No catalog table has two media-extension profiles, so the "+me" rule is exercised on a table that does
# (RTX PRO 6000 Blackwell-style ``+me.all`` profiles).
_TWO_MEDIA_PROFILES = MigTable(
    family="test",
    pci_device_ids=(),
    profiles={"1g.24gb": 4, "1g.24gb+me.all": 1, "2g.48gb+me.all": 1, "2g.48gb": 2},
    balanced={"1g.24gb": 2, "2g.48gb": 1},
)


def test_two_media_extension_instances_are_refused() -> None:
    problems = mig_profiles.layout_problems(_TWO_MEDIA_PROFILES, {"1g.24gb+me.all": 1, "2g.48gb+me.all": 1})
    assert problems == ["only one media-extension (+me) instance fits on one GPU"]


def test_every_problem_of_a_layout_is_reported() -> None:
    problems = mig_profiles.layout_problems(A100_40GB, {"9g.1gb": 1, "1g.5gb": 8})
    assert len(problems) == 2


@pytest.mark.parametrize(
    ("table", "profile", "slices"),
    [
        (A100_40GB, "1g.5gb", 1),
        (A100_40GB, "1g.5gb+me", 1),
        (A100_40GB, "1g.10gb", 2),
        (A100_40GB, "2g.10gb", 2),
        (A100_40GB, "3g.20gb", 4),
        (A100_40GB, "4g.20gb", 4),
        (A100_40GB, "7g.40gb", 8),
        (A100_80GB_H100_80GB, "1g.20gb", 2),
        (A100_80GB_H100_80GB, "3g.40gb", 4),
        (H100_NVL_94GB, "3g.47gb", 4),
        (H100_NVL_94GB, "7g.94gb", 8),
        (H200_141GB, "1g.35gb", 2),
        (H200_141GB, "7g.141gb", 8),
        (B200_180GB, "3g.90gb", 4),
        (H100_96GB_GH200, "4g.48gb", 4),
    ],
)
def test_memory_slices_of_profile(table: MigTable, profile: str, slices: int) -> None:
    assert table.memory_slices_of(profile) == slices


@pytest.mark.parametrize(
    ("profile", "compute"),
    [("1g.5gb", 1), ("1g.10gb+me", 1), ("2g.20gb", 2), ("3g.71gb", 3), ("4g.90gb", 4), ("7g.180gb", 7)],
)
def test_compute_slices_of_profile(profile: str, compute: int) -> None:
    assert mig_profiles.compute_slices_of(profile) == compute


@pytest.mark.parametrize("text", ["all-balanced", "1g", "8g.10gb", "1g.10GB", "1g.10gb+xx", " 1g.10gb", ""])
def test_compute_slices_of_non_profile_raises(text: str) -> None:
    with pytest.raises(ValueError, match="not a MIG profile name"):
        mig_profiles.compute_slices_of(text)


@pytest.mark.parametrize(
    ("text", "shaped"),
    [
        ("1g.5gb", True),
        ("1g.10gb+me", True),
        ("1g.24gb+me.all", True),
        ("1g.24gb+gfx", True),
        ("1g.24gb-me", True),
        ("7g.141gb", True),
        ("all-1g.10gb", False),
        ("0g.5gb", False),
        ("1g.5", False),
        ("1G.5GB", False),
        ("mig-1g.5gb", False),
    ],
)
def test_is_profile_name(text: str, shaped: bool) -> None:
    assert mig_profiles.is_profile_name(text) is shaped


@pytest.mark.parametrize(
    ("profile", "media"),
    [("1g.10gb+me", True), ("1g.24gb+me.all", True), ("1g.24gb-me", False), ("1g.24gb+gfx", False), ("1g.10gb", False)],
)
def test_is_media_extension(profile: str, media: bool) -> None:
    assert mig_profiles.is_media_extension(profile) is media


@pytest.mark.parametrize(
    ("profile", "config", "resource"),
    [
        ("1g.10gb", "all-1g.10gb", "nvidia.com/mig-1g.10gb"),
        ("1g.10gb+me", "all-1g.10gb.me", "nvidia.com/mig-1g.10gb.me"),
        ("1g.5gb+me", "all-1g.5gb.me", "nvidia.com/mig-1g.5gb.me"),
        ("3g.40gb", "all-3g.40gb", "nvidia.com/mig-3g.40gb"),
        ("1g.24gb+me.all", "all-1g.24gb.me.all", "nvidia.com/mig-1g.24gb.me.all"),
        ("7g.141gb", "all-7g.141gb", "nvidia.com/mig-7g.141gb"),
    ],
)
def test_config_and_resource_names_replace_plus_with_dot(profile: str, config: str, resource: str) -> None:
    assert mig_profiles.mig_config_name(profile) == config
    assert mig_resource_name(profile) == resource


@pytest.mark.parametrize("table", TABLES, ids=TABLE_IDS)
def test_table_is_well_formed(table: MigTable) -> None:
    assert MIG_TABLES[table.family] is table
    assert all(mig_profiles.is_profile_name(p) for p in table.profiles)
    assert all(count >= 1 for count in table.profiles.values())
    assert set(table.balanced) <= set(table.profiles)
    assert all(pci.endswith("10DE") for pci in table.pci_device_ids)
    assert all(count == 1 for p, count in table.profiles.items() if mig_profiles.is_media_extension(p))
    assert sum(1 for p in table.profiles if mig_profiles.is_media_extension(p)) <= (
        2 if table.compute_slices == 4 else 1
    )


def test_only_b200_and_b300_layouts_are_inferred() -> None:
    assert {t.family for t in TABLES if t.inferred} == {"B200", "B300"}
