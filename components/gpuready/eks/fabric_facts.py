"""EFA of the EKS catalog's GPU instance types: which network cards take an EFA interface. Pure.

Source: EC2 DescribeInstanceTypes ``NetworkInfo`` (``EfaSupported``, ``MaximumNetworkCards``,
``EfaInfo.MaximumEfaInterfaces``, ``NetworkCards[].InterfaceTypes``) as bundled by moto 5.2.5
(``moto/ec2/resources/instance_types.json.gz``), the data ``gpuready.eks.catalog`` comes from; generated from it for
every catalog type with ``EfaSupported``, and checked against it by ``tests/eks/test_fabric_facts.py``. The cards
that take EFA are those whose ``InterfaceTypes`` list ``efa-only``; they are consecutive on every type, and their
number is the type's ``MaximumEfaInterfaces``. p6-b300.48xlarge is the one type whose card 0 (of 17) takes only an
ENA ``interface``: its 16 EFA cards are 1-16. Catalog types not listed have no EFA.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.fabric.model import TypeFabric

SOURCE = "EC2 DescribeInstanceTypes NetworkInfo via moto 5.2.5 instance_types.json.gz"

EFA_CARDS: Mapping[str, tuple[int, int]] = {
    "g4dn.12xlarge": (0, 1),
    "g4dn.16xlarge": (0, 1),
    "g4dn.8xlarge": (0, 1),
    "g4dn.metal": (0, 1),
    "g5.12xlarge": (0, 1),
    "g5.16xlarge": (0, 1),
    "g5.24xlarge": (0, 1),
    "g5.48xlarge": (0, 1),
    "g5.8xlarge": (0, 1),
    "g6.12xlarge": (0, 1),
    "g6.16xlarge": (0, 1),
    "g6.24xlarge": (0, 1),
    "g6.48xlarge": (0, 1),
    "g6.8xlarge": (0, 1),
    "g6e.12xlarge": (0, 1),
    "g6e.16xlarge": (0, 1),
    "g6e.24xlarge": (0, 2),
    "g6e.48xlarge": (0, 4),
    "g6e.8xlarge": (0, 1),
    "g7.12xlarge": (0, 1),
    "g7.24xlarge": (0, 1),
    "g7.48xlarge": (0, 2),
    "g7.8xlarge": (0, 1),
    "g7e.12xlarge": (0, 1),
    "g7e.24xlarge": (0, 2),
    "g7e.48xlarge": (0, 4),
    "g7e.8xlarge": (0, 1),
    "gr6.8xlarge": (0, 1),
    "p3dn.24xlarge": (0, 1),
    "p4d.24xlarge": (0, 4),
    "p4de.24xlarge": (0, 4),
    "p5.48xlarge": (0, 32),
    "p5.4xlarge": (0, 1),
    "p5e.48xlarge": (0, 32),
    "p5en.48xlarge": (0, 16),
    "p6-b200.48xlarge": (0, 8),
    "p6-b300.48xlarge": (1, 16),
}
"""Instance type -> (first network card taking EFA, number of such cards = EFA interfaces per node)."""

EFA_RESOURCE = "vpc.amazonaws.com/efa"
"""The extended resource the EFA device plugin advertises, one per EFA interface."""
EFA_TYPES: Mapping[str, TypeFabric] = {
    name: TypeFabric(kind="efa", devices=count, cards=tuple(range(first, first + count)))
    for name, (first, count) in EFA_CARDS.items()
}
"""Instance type -> its EFA (devices = EFA interfaces = network cards that take one)."""

EFA_PLUGIN_CHART = "aws-efa-k8s-device-plugin"
EFA_PLUGIN_VERSION = "v0.5.30"
"""The EFA device plugin chart gpuready installs and its pinned version (aws/eks-charts; ``eks.efa_plugin``)."""
EFA_PLUGIN_RELEASE = EFA_PLUGIN_CHART
