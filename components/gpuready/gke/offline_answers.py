"""What the Google Cloud provider would answer for a GKE stack, faked for offline plans
(``CloudProfile.offline_answers``). Pure.

The cluster (pulumi-gcp 10.2.0 ``container/get_cluster.py``): its endpoint, which GKE returns without a scheme, and
its CA.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.clouds.offline_answers import OfflineAnswers, Placeholders

GKE_GET_CLUSTER = "gcp:container/getCluster:getCluster"


def _cluster(args: Mapping[str, Any], fake: Placeholders) -> dict[str, Any]:
    value = args.get("name")
    name = value if isinstance(value, str) and value else fake.cluster
    location = args.get("location") or "offline-location"
    return {
        "id": f"projects/offline-project/locations/{location}/clusters/{name}",
        "name": name,
        "location": location,
        "project": "offline-project",
        "endpoint": fake.host,  # GKE returns the address without a scheme
        "masterAuths": [{"clusterCaCertificate": fake.ca_b64}],
    }


ANSWERS = OfflineAnswers(invokes={GKE_GET_CLUSTER: _cluster})
