"""Facts of the EKS node monitoring agent's chart 1.7.0 that gpuready plans against. Pure data.

# aws/eks-node-monitoring-agent v1.7.0 (c399089d) charts/eks-node-monitoring-agent/values.yaml: nodeAgent
#   (tolerations [{operator: Exists}], affinity excluding eks.amazonaws.com/compute-type fargate, auto, hybrid),
#   dcgmAgent (tolerations [], affinity: node.kubernetes.io/instance-type In the list below, kubernetes.io/arch
#   In [amd64]); templates/dcgm-daemonset.yaml (nv-hostengine, hostPort 5555); README.md "DCGM host engine" (the
#   agent connects to localhost:5555 in standalone mode)
# tests/core/health/test_agent_chart.py checks every fact against ../shared/reference/upstream/charts/
#   eks-node-monitoring-agent-1.7.0.source.tgz
"""

from __future__ import annotations

AGENT_ADDON = "eks-node-monitoring-agent"
AGENT_ADDON_VERSION = "v1.7.0-eksbuild.1"
"""The add-on version of the agent chart 1.7.0 (its ``nodeAgent.image.tag``)."""
AGENT_CHART_VERSION = "1.7.0"
DCGM_PORT = 5555
"""The DCGM host engine's port on the node, where the agent's DCGM client connects."""
NODE_AGENT_EXCLUDED_COMPUTE = ("fargate", "auto", "hybrid")
"""``eks.amazonaws.com/compute-type`` values the agent never runs on (EKS Auto Mode has its own)."""
DCGM_SERVER_ARCH = "amd64"

_FAMILIES = {
    "g3": ("16xlarge", "4xlarge", "8xlarge"), "g3s": ("xlarge",),
    "g4dn": ("12xlarge", "16xlarge", "2xlarge", "4xlarge", "8xlarge", "metal", "xlarge"),
    "g5": ("12xlarge", "16xlarge", "24xlarge", "2xlarge", "48xlarge", "4xlarge", "8xlarge", "xlarge"),
    "g5g": ("16xlarge", "2xlarge", "4xlarge", "8xlarge", "metal", "xlarge"),
    "g6": ("12xlarge", "16xlarge", "24xlarge", "2xlarge", "48xlarge", "4xlarge", "8xlarge", "xlarge"),
    "g6e": ("12xlarge", "16xlarge", "24xlarge", "2xlarge", "48xlarge", "4xlarge", "8xlarge", "xlarge"),
    "g6f": ("2xlarge", "4xlarge", "large", "xlarge"),
    "g7": ("12xlarge", "24xlarge", "2xlarge", "48xlarge", "4xlarge", "8xlarge"),
    "g7e": ("12xlarge", "24xlarge", "2xlarge", "48xlarge", "4xlarge", "8xlarge"),
    "gr6": ("4xlarge", "8xlarge"), "gr6f": ("4xlarge",),
    "p2": ("16xlarge", "8xlarge", "xlarge"), "p3": ("16xlarge", "2xlarge", "8xlarge"), "p3dn": ("24xlarge",),
    "p4d": ("24xlarge",), "p4de": ("24xlarge",), "p5": ("48xlarge", "4xlarge"), "p5e": ("48xlarge",),
    "p5en": ("48xlarge",), "p6-b200": ("48xlarge",), "p6-b300": ("48xlarge",), "p6e-gb200": ("36xlarge",),
    "p6e-gb300": ("36xlarge",),
}  # fmt: skip
DCGM_SERVER_INSTANCE_TYPES: frozenset[str] = frozenset(f"{f}.{s}" for f, sizes in _FAMILIES.items() for s in sizes)
"""The instance types the chart's dcgm-server DaemonSet may run on (its required node affinity)."""
