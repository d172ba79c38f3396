"""Generate ``components/gpuready/core/gpu_stack/chart_facts.json`` from the chart archives gpuready pins.

The archives are read from the shared reference snapshot (``../shared/reference/upstream/charts/``, through
``tests.upstream``), never from the repository. For each chart version in ``SOURCES`` this reads what
``extra_values`` needs (the coalesced values tree, the dependency conditions, whether the chart has a values
schema) and records it with the archive's citation and sha256. ``tests/fidelity/test_chart_facts.py`` regenerates
the table and compares it with the recorded one.

Regenerate: ``.venv/bin/python -m tests.fidelity.chart_facts`` (writes the table; ``--check`` only compares).
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
import tarfile
from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import yaml

from gpuready.core.gpu_stack.chart_facts import FACTS_FILE, ChartCitation
from gpuready.core.mappings import deep_merge
from tests.upstream import UPSTREAM, upstream_bytes

CHART_DIR = "charts"
"""The archives' folder in the snapshot."""
SOURCES: tuple[tuple[str, str, ChartCitation], ...] = (
    (
        "gpu-operator",
        "v26.7.0",
        ChartCitation(
            "NVIDIA/gpu-operator",
            "gh-pages@5d1bf54a53bf15ba4d4d4327cd19cea436e7e73a",
            "stable/gpu-operator-v26.7.0.tgz",
            "gpu-operator-v26.7.0.tgz",
            "",
        ),
    ),
    (
        "nvidia-device-plugin",
        "0.20.0",
        ChartCitation(
            "NVIDIA/k8s-device-plugin",
            "gh-pages@bf584288ed8c31d6b63b1ec5bdc9c8ef8f0ded7c",
            "stable/nvidia-device-plugin-0.20.0.tgz",
            "nvidia-device-plugin-0.20.0.tgz",
            "",
        ),
    ),
    (
        "dra-driver-nvidia-gpu",
        "0.4.0",
        ChartCitation(
            "NVIDIA/k8s-dra-driver-gpu",
            "v0.4.0",
            "deployments/helm/dra-driver-nvidia-gpu/ (git archive)",
            "dra-driver-nvidia-gpu-v0.4.0.source.tgz",
            "",
        ),
    ),
    (
        "aws-efa-k8s-device-plugin",
        "v0.5.30",
        ChartCitation(
            "aws/eks-charts",
            "HEAD@5239609242f3",
            "stable/aws-efa-k8s-device-plugin/ (chart version 0.5.30)",
            "aws-efa-k8s-device-plugin-v0.5.30.source.tgz",
            "",
        ),
    ),
    (
        "network-operator",
        "26.1.2",
        ChartCitation(
            "Mellanox/network-operator",
            "v26.1.2",
            "deployment/network-operator/ (git archive)",
            "network-operator-26.1.2.source.tgz",
            "",
        ),
    ),
)
"""(chart, version, citation without its sha256) of every archive the table is read from (provenance:
``../shared/reference/upstream/SOURCES.md``, section ``charts/``)."""


def archive_bytes(archive: str) -> bytes:
    """The bytes of ``charts/<archive>`` in the snapshot (the calling test skips without it)."""
    return upstream_bytes(f"{CHART_DIR}/{archive}")


def members(data: bytes) -> dict[str, bytes]:
    """The YAML and JSON files of a chart archive, by member name."""
    files: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith((".yaml", ".json")):
                extracted = archive.extractfile(member)
                if extracted is not None:
                    files[member.name] = extracted.read()
    return files


def _yaml(files: Mapping[str, bytes], name: str) -> Any:
    return yaml.load(files[name], Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def read_facts(data: bytes) -> dict[str, Any]:
    """What ``extra_values`` needs of one chart archive."""
    files = members(data)
    root = next(iter(files)).split("/", 1)[0]
    chart = _yaml(files, f"{root}/Chart.yaml")
    tree: dict[str, Any] = dict(_yaml(files, f"{root}/values.yaml") or {})
    conditions: set[str] = set()
    for dependency in chart.get("dependencies") or []:
        key = str(dependency.get("alias") or dependency["name"])
        conditions.update(c.strip() for c in str(dependency.get("condition", "")).split(",") if c.strip())
        sub_values = f"{root}/charts/{dependency['name']}/values.yaml"
        if sub_values in files:
            tree[key] = deep_merge(_yaml(files, sub_values) or {}, tree.get(key) or {})
    return {
        "chart": chart["name"],
        "version": chart["version"],
        "conditions": sorted(conditions),
        "has_schema": f"{root}/values.schema.json" in files,
        "values": tree,
    }


def generate() -> str:
    """The table, as ``chart_facts.json`` holds it."""
    rows = []
    for name, version, citation in SOURCES:
        data = archive_bytes(citation.archive)
        facts = read_facts(data)
        assert (facts["chart"], facts["version"]) == (name, version), (citation.archive, facts["version"])
        cited = asdict(citation) | {"sha256": hashlib.sha256(data).hexdigest()}
        rows.append(
            {"chart": name, "version": version, "citation": cited}
            | {k: v for k, v in facts.items() if k not in ("chart", "version")}
        )
    table = {"generated_by": "python -m tests.fidelity.chart_facts", "charts": rows}
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    if json.loads(text) != table:  # a key or value JSON cannot hold as YAML gave it (an int key, a date)
        raise ValueError("the chart facts do not survive JSON: record them another way")
    return text


def main(argv: list[str]) -> int:
    if not UPSTREAM.is_dir():
        print(f"{UPSTREAM} is absent: the chart archives are read from the shared reference snapshot", file=sys.stderr)
        return 2
    text = generate()
    if "--check" in argv:
        same = FACTS_FILE.read_text(encoding="utf-8") == text
        print(f"{FACTS_FILE}: {'up to date' if same else 'stale; regenerate without --check'}")
        return 0 if same else 1
    FACTS_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {FACTS_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
