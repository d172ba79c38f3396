"""Cloud limits on pools per cluster that are facts (hard limits), checked before anything registers. Pure.

Each limit is its cloud profile's ``max_pools`` (with its source); the facts behind them:

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

from typing import TYPE_CHECKING

from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.spec_rules import SpecRules


def pool_count_problems(profile: SpecRules, pools: int, path: str, existing_hint: str = "") -> list[Problem]:
    """A problem when ``pools`` gpuready pools alone exceed the cloud's per-cluster limit (``max_pools``)."""
    if profile.max_pools is None or pools <= profile.max_pools[0]:
        return []
    limit, source = profile.max_pools
    return [
        Problem(
            path,
            f"{pools} pools exceed {profile.title}'s limit of {limit} node pools per cluster ({source}), "
            "which also counts the cluster's other pools",
            None,
            (),
            existing_hint or "split the pools across clusters, or merge pools that share an instance type",
        )
    ]
