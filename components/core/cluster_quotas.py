"""Cloud limits on pools per cluster that are facts (hard limits), checked before anything registers. Pure.

* AKS: "Maximum node pools per cluster: 100" (Microsoft Learn, "Quotas, virtual machine size restrictions, and
  region availability in AKS", learn.microsoft.com/azure/aks/quotas-skus-regions, "Service quotas and limits").
  A hard limit: the same table marks the limits that can be raised, and this is not one of them.

Not checked, on purpose:

* EKS: "Managed node groups per cluster" is 30 by default, but it is an adjustable Service Quota
  (docs.aws.amazon.com/eks/latest/userguide/service-quotas.html): refusing 31 would refuse accounts that raised it.
* GKE: no hard limit on node pools per cluster is documented; "Configure node pool auto-creation"
  (docs.cloud.google.com/kubernetes-engine/docs/how-to/node-auto-provisioning) only warns that more than 200
  node pools may slow autoscaling.
"""

from __future__ import annotations

from collections.abc import Mapping

from components.core.clouds.registry import Cloud
from components.errors import Problem

MAX_POOLS_PER_CLUSTER: Mapping[Cloud, int] = {"aks": 100}
"""Hard per-cluster node pool limits, by cloud (see the module docstring for sources)."""

_SOURCES: Mapping[Cloud, str] = {"aks": "AKS quotas page: maximum node pools per cluster"}


def pool_count_problems(cloud: Cloud, pools: int, path: str, existing_hint: str = "") -> list[Problem]:
    """A problem when ``pools`` gpuready pools alone exceed the cloud's per-cluster limit."""
    limit = MAX_POOLS_PER_CLUSTER.get(cloud)
    if limit is None or pools <= limit:
        return []
    return [
        Problem(
            path,
            f"{pools} pools exceed {cloud.upper()}'s limit of {limit} node pools per cluster ({_SOURCES[cloud]}), "
            "which also counts the cluster's other pools",
            None,
            (),
            existing_hint or "split the pools across clusters, or merge pools that share an instance type",
        )
    ]
