"""The EKS node monitoring agent as an ``aws.eks.Addon`` (``gpuStack.health.agent: eks-node-monitoring-agent``).

Its configuration values are the agent chart's values gpuready planned (``gpuready.core.health.agent``): the
dcgm-server tolerating every taint of the pools when it runs DCGM there, or kept off the pools when the GPU
Operator's standalone DCGM serves the agent. ``resolveConflictsOnCreate: OVERWRITE`` takes over an agent installed
by hand; updates keep what others changed (``PRESERVE``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pulumi
import pulumi_aws as aws

from gpuready.core.health.agent_chart import AGENT_ADDON, AGENT_ADDON_VERSION


def addon_args(cluster_name: str, values: Mapping[str, Any], tags: Mapping[str, str]) -> dict[str, Any]:
    """Keyword arguments of ``aws.eks.Addon`` (botocore eks ``CreateAddonRequest`` members, snake_case)."""
    return {
        "cluster_name": cluster_name,
        "addon_name": AGENT_ADDON,
        "addon_version": AGENT_ADDON_VERSION,
        "configuration_values": json.dumps(values, sort_keys=True, separators=(",", ":")),
        "resolve_conflicts_on_create": "OVERWRITE",
        "resolve_conflicts_on_update": "PRESERVE",
        "tags": dict(tags),
    }


def build_health_agent(
    name: str,
    cluster_name: str,
    values: Mapping[str, Any],
    tags: Mapping[str, str],
    opts: pulumi.ResourceOptions,
) -> pulumi.Resource:
    """The agent's add-on on ``cluster_name`` (the stack program's and the chart components' one path); ``opts``
    orders it after the pools (its DaemonSets need nodes to land on)."""
    addon: pulumi.Resource = aws.eks.Addon(name, **addon_args(cluster_name, values, tags), opts=opts)
    return addon
