"""The repository keeps no copy of a file taken from another public repository: no tracked file has the sha256 of
a file of the shared reference snapshot (``../shared/reference/upstream/SHA256SUMS``; the before-stop hook runs the
same check). Tests read those files from the snapshot (``tests/upstream.py``) and facts needed at run time are
tables with their citation (``components/gpuready/core/gpu_stack/chart_facts.json``)."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from gpuready.core.catalog import mig_profiles
from tests import upstream
from tests.upstream import ROOT, sha256sums, upstream_text


def _tracked() -> list[str]:
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git work tree: no tracked files to check")
    listed = subprocess.run([git, "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [name for name in listed.decode("utf-8").split("\0") if name and (ROOT / name).is_file()]


def test_no_tracked_file_is_a_byte_copy_of_an_upstream_file() -> None:
    upstream = {digest: name for name, digest in sha256sums().items()}
    copies = {}
    for name in _tracked():
        digest = hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
        if digest in upstream:
            copies[name] = upstream[digest]
    assert copies == {}, "read these from ../shared/reference/upstream (tests/upstream.py) instead of copying them"


def test_the_repository_has_no_folder_of_upstream_files() -> None:
    tracked = _tracked()
    assert not [n for n in tracked if n.startswith(("tests/data/upstream/", "gpuready/core/gpu_stack/archives/"))]
    assert not [n for n in tracked if n.endswith((".tgz", ".tar.gz"))]


def test_mig_parted_provenance_matches_what_the_catalog_cites() -> None:
    """The catalog cites the commit, tag and path the snapshot's ``SOURCES.md`` gives for mig-parted's config."""
    row = re.search(
        r"^\| `config-default\.v0\.15\.0\.yaml` \| `(?P<path>[^`]+)` \| tag `(?P<tag>[^`]+)` \(`(?P<commit>[0-9a-f]+)",
        upstream_text("SOURCES.md"),
        re.MULTILINE,
    )
    assert row is not None, "SOURCES.md has no row for mig-parted's config-default.v0.15.0.yaml"
    cited = re.search(
        r"NVIDIA/mig-parted@(?P<commit>[0-9a-f]{7,40}) \((?P<tag>[^)]+)\) (?P<path>\S+)", mig_profiles.MIG_PARTED_SOURCE
    )
    assert cited is not None, mig_profiles.MIG_PARTED_SOURCE
    assert row["commit"].startswith(cited["commit"])
    assert (cited["tag"], cited["path"]) == (row["tag"], row["path"])
    assert "mig-parted/config-default.v0.15.0.yaml" in sha256sums()


def test_a_missing_upstream_file_skips_with_its_path_as_the_reason(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(upstream, "UPSTREAM", tmp_path)
    (tmp_path / "mig-parted").mkdir()
    (tmp_path / "mig-parted" / "present.yaml").write_text("a: 1\n", encoding="utf-8")
    assert upstream.upstream_file("mig-parted/present.yaml") == tmp_path / "mig-parted" / "present.yaml"
    with pytest.raises(
        pytest.skip.Exception, match=r"\.\./shared/reference/upstream/mig-parted/absent\.yaml is absent"
    ):
        upstream.upstream_file("mig-parted/absent.yaml")
