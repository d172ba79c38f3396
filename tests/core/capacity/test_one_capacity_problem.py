"""The merged capacity mechanism (issue #28): the shared table rules (``reservation_rules``), the capacity keys
(``capacity_choice``) and each cloud's own rules say a bad ``capacity`` / ``reservation`` input once, with the
cloud's own words where it has them."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.clouds.registry import Cloud
from gpuready.errors import SpecError

GKE_A3 = {"name": "g", "instanceType": "a3-highgpu-8g", "minSize": 0, "maxSize": 2}
AKS_A100 = {"name": "g", "instanceType": "Standard_NC24ads_A100_v4", "minSize": 0, "maxSize": 2}
EKS_P5 = {"name": "g", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2}
CRG = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Compute/capacityReservationGroups/h100"  # noqa: E501

CASES = [
    pytest.param("gke", {**GKE_A3, "capacity": "reserved", "reservation": {}}, "nodePools[0].reservation.affinity",
                 "a reserved pool names how it consumes", id="gke-reserved-empty"),
    pytest.param("aks", {**AKS_A100, "capacity": "reserved", "reservation": {}}, "nodePools[0].reservation.groupId",
                 "names its capacity reservation group", id="aks-reserved-empty"),
    pytest.param("gke", {**GKE_A3, "reservation": {}}, "nodePools[0].reservation", "is empty", id="gke-empty"),
    pytest.param("eks", {**EKS_P5, "reservation": {}}, "nodePools[0].reservation", "draws on no reservation",
                 id="eks-on-demand-empty"),
    pytest.param("eks", {**EKS_P5, "capacity": "reserved", "reservation": {}}, "nodePools[0].reservation",
                 "says no reservation", id="eks-reserved-empty"),
    pytest.param("gke", {**GKE_A3, "capacity": "spot", "reservation": {"ids": ["cr-0a"]}},
                 "nodePools[0].reservation.ids", "no GKE provisioner reads it", id="gke-eks-field"),
    pytest.param("eks", {**EKS_P5, "capacity": "reserved", "reservation": {"ids": ["cr-0a"], "groupId": CRG}},
                 "nodePools[0].reservation.groupId", "no EKS provisioner reads it", id="eks-aks-field"),
    pytest.param("aks", {**AKS_A100, "provisioner": "nap", "maxSize": 2, "reservation": {"groupId": CRG}},
                 "nodePools[0].reservation.groupId", "use provisioner: node-pool", id="nap-group"),
    pytest.param("aks", {**AKS_A100, "capacity": "capacity-block"}, "nodePools[0].capacity",
                 "not offered by the AKS node-pool provisioner", id="aks-block"),
]  # fmt: skip


@pytest.mark.parametrize(("cloud", "entry", "path", "words"), CASES)
def test_a_bad_capacity_input_is_one_problem(cloud: Cloud, entry: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as caught:
        pool_config.parse_pools([entry], cloud)
    found = [str(problem) for problem in caught.value.problems]
    assert len(found) == 1, found
    assert found[0].startswith(f"{path}:") and words in found[0], found
