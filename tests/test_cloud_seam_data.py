"""The cloud seam holds for data too: outside a cloud's own package no JSON or YAML table under
``components/gpuready/`` names a cloud or a cloud package (a key, or a value that is a name rather than prose: an
identifier, a module path, a resource-type token, an image or chart path), except the files of ``DATA_EXEMPT``, each
with its reason (the table only shrinks: an exempt file that no longer names a cloud fails too).

The Python scan (``tests/test_cloud_seam.py``) reads identifiers; a table would otherwise carry a cloud past it (the
config models' shape table did, as JSON, until each cloud's settings shape moved into the cloud's package).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import yaml

from gpuready.core.clouds.registry import cloud_names as registered_clouds
from tests.test_cloud_seam import CLOUD_PACKAGES, PROVIDERS, ROOT, _words

DATA_SUFFIXES = (".json", ".yaml", ".yml")
DATA_EXEMPT: Mapping[str, str] = {
    "components/gpuready/core/gpu_stack/chart_facts.json": (
        "one generated table of every pinned chart's facts (tests/fidelity/chart_facts.py), the EKS fabric's "
        "aws/eks-charts aws-efa-k8s-device-plugin among them: a table per cloud package would move it"
    ),
    "components/gpuready/new_project/project_config.yaml": (
        "generated (make project-config) from the joined settings model: Pulumi.yaml declares every registered "
        "cloud's keys (eksNodeRoleArn, ...), which a stack on any cloud may set; gpuready new copies the block as is"
    ),
}
"""Data files outside the cloud packages that still name a cloud, and why (what would move them)."""


def _strings(data: object) -> Iterator[str]:
    if isinstance(data, Mapping):
        for key, value in data.items():
            yield from _strings(key)
            yield from _strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from _strings(item)
    elif isinstance(data, str):
        yield data


def data_cloud_names(data: object) -> list[str]:
    """Every key or name-like value (no whitespace: prose is not scanned) in ``data`` that names a cloud."""
    clouds = registered_clouds()
    providers = tuple(f"{provider}:" for provider in PROVIDERS)
    names = {text for text in _strings(data) if text and not re.search(r"\s", text)}
    return sorted(name for name in names if name.startswith(providers) or any(w in clouds for w in _words(name)))


def _data_files() -> list[Path]:
    return sorted(path for path in (ROOT / "components/gpuready").rglob("*") if path.suffix in DATA_SUFFIXES)


def _load(path: Path) -> object:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def test_no_data_file_outside_a_cloud_package_names_a_cloud() -> None:
    found, still = [], set()
    for path in _data_files():
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith(CLOUD_PACKAGES):
            continue
        names = [f"{relative}: {name}" for name in data_cloud_names(_load(path))]
        if relative not in DATA_EXEMPT:
            found += names
        elif names:
            still.add(relative)
    assert not found, "move it into the cloud's package (a table of its own, reached through its entry):\n" + "\n".join(
        found
    )
    assert sorted(set(DATA_EXEMPT) - still) == [], "no longer names a cloud: drop it from DATA_EXEMPT"


def test_the_scan_reads_the_core_s_shape_table() -> None:
    scanned = {path.relative_to(ROOT).as_posix() for path in _data_files()}
    assert "components/gpuready/core/config_model/shapes.json" in scanned


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ({"SHAPES": {"EksSettingsConfig": []}}, ["EksSettingsConfig"]),
        ({"light": "gpuready.gke.settings_keys:GkeSettingsValues"}, ["gpuready.gke.settings_keys:GkeSettingsValues"]),
        ([["gke_location", "gkeLocation", "str"]], ["gkeLocation", "gke_location"]),
        ({"cloud": ["literal", ["eks", "aks"]]}, ["aks", "eks"]),
        ({"type": "azure-native:containerservice:AgentPool"}, ["azure-native:containerservice:AgentPool"]),
        (
            {"image": "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/x"},
            ["602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/x"],
        ),
        ({"description": "Name of the EKS / AKS / GKE cluster"}, []),
        ({"PoolConfig": [True, ["null_is_absent"], [["name", "name", "str"]]]}, []),
        ({"speaks": "tokens", "kind": "kubernetes:core/v1:ConfigMap"}, []),
    ],
)
def test_the_data_scan_catches_keys_names_and_tokens(data: object, names: list[str]) -> None:
    assert data_cloud_names(data) == names
