"""The EFA table against EC2's own data (moto's bundled DescribeInstanceTypes), for every EFA type of the catalog:
the cards that take EFA, their count (``MaximumEfaInterfaces``), within ``MaximumNetworkCards``."""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import moto
import pytest

from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from gpuready.eks.fabric import FABRIC
from gpuready.eks.fabric_facts import EFA_CARDS, EFA_RESOURCE, EFA_TYPES

BUNDLED: Mapping[str, Any] = json.loads(
    gzip.decompress((Path(moto.__file__).parent / "ec2" / "resources" / "instance_types.json.gz").read_bytes())
)
EFA_IN_EC2 = sorted(name for name in EKS_INSTANCE_TYPES if BUNDLED[name]["NetworkInfo"].get("EfaSupported"))


def test_the_table_lists_exactly_the_catalog_types_with_efa() -> None:
    assert sorted(EFA_CARDS) == EFA_IN_EC2
    assert {"p5.48xlarge", "p5en.48xlarge", "p6-b200.48xlarge", "p4d.24xlarge"} <= set(EFA_CARDS)


@pytest.mark.parametrize("name", EFA_IN_EC2)
def test_efa_cards_match_ec2(name: str) -> None:
    network = BUNDLED[name]["NetworkInfo"]
    cards = [c["NetworkCardIndex"] for c in network["NetworkCards"] if "efa-only" in c.get("InterfaceTypes", [])]
    fabric = EFA_TYPES[name]
    assert fabric.cards == tuple(cards)
    assert fabric.devices == network["EfaInfo"]["MaximumEfaInterfaces"] == len(cards)
    assert max(fabric.cards) < network["MaximumNetworkCards"]
    assert fabric.primary_card == network["DefaultNetworkCardIndex"]


@pytest.mark.parametrize(("name", "devices"), [("p5.48xlarge", 32), ("p5en.48xlarge", 16), ("p4d.24xlarge", 4),
                                               ("p6-b300.48xlarge", 16), ("g6e.48xlarge", 4)])  # fmt: skip
def test_known_counts(name: str, devices: int) -> None:
    assert EFA_TYPES[name].devices == devices
    assert FABRIC.types[name].devices == devices
    assert EFA_RESOURCE == "vpc.amazonaws.com/efa"
