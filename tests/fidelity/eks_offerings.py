"""Which AWS regions offer the EKS catalog's GPU instance types, read from the installed moto:
``components/gpuready/eks/offerings.json``.

moto ships EC2 ``DescribeInstanceTypeOfferings`` (``LocationType=region``) results per region
(``moto/ec2/resources/instance_type_offerings/region/<region>.json.gz``, gathered by moto's maintainers with
``scripts/ec2_get_instance_type_offerings.py`` against real accounts). This module keeps only the instance types of
``gpuready.eks.catalog`` and records moto's version and the date its release was published (the ``upload-time``
of moto's wheel in ``uv.lock``): the data is no newer than that. ``tests/fidelity/test_eks_offerings.py`` fails when
the recorded file and the installed moto drift apart.

Regenerate after a moto upgrade: ``python -m tests.fidelity.eks_offerings``.
"""

from __future__ import annotations

import gzip
import json
import sys
import tomllib
from importlib import metadata, resources
from pathlib import Path
from typing import Any

from gpuready.eks.catalog import EKS_INSTANCE_TYPES

ROOT = Path(__file__).resolve().parents[2]
VENDORED = ROOT / "components" / "gpuready" / "eks" / "offerings.json"
MOTO_REGIONS = "ec2/resources/instance_type_offerings/region"


def moto_release_date() -> str:
    """The day moto's locked wheel was published on PyPI (``uv.lock``), ``YYYY-MM-DD``."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    (package,) = (p for p in lock["package"] if p["name"] == "moto")
    return str(package["wheels"][0]["upload-time"])[:10]


def installed_offerings() -> dict[str, Any]:
    """Region -> the catalog's instance types the installed moto lists as offered there."""
    catalog = set(EKS_INSTANCE_TYPES)
    regions: dict[str, list[str]] = {}
    for entry in resources.files("moto").joinpath(MOTO_REGIONS).iterdir():
        if not entry.name.endswith(".json.gz"):
            continue
        offers = json.loads(gzip.decompress(entry.read_bytes()))
        regions[entry.name.removesuffix(".json.gz")] = sorted(catalog & {o["InstanceType"] for o in offers})
    version = metadata.version("moto")
    return {
        "source": f"EC2 instance type offerings by region as moto {version} ships them, released {moto_release_date()}",
        "moto": version,
        "date": moto_release_date(),
        "regions": dict(sorted(regions.items())),
    }


def render(data: dict[str, Any]) -> str:
    """One region per line: compact, and a refresh shows as a readable diff."""
    lines = [f' "{key}": {json.dumps(data[key])},' for key in ("date", "moto", "source")]
    regions = [f'  "{region}": {json.dumps(types)}' for region, types in data["regions"].items()]
    return "{\n" + "\n".join(lines) + '\n "regions": {\n' + ",\n".join(regions) + "\n }\n}\n"


def main() -> None:
    VENDORED.write_text(render(installed_offerings()), encoding="utf-8")
    sys.stdout.write(f"wrote {VENDORED.relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
