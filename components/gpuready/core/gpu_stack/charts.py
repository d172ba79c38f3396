"""What gpuready knows of a Helm chart it pins (``Chart``): name, version, repository, values keys, owned paths. Pure.

Each chart is its stack kind's (``Chart.kind``), defined in the kind's module under ``kinds/``, with its facts'
citations there; ``kinds.STACK_CHARTS`` lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.core.gpu_stack.owned_values import Owned
from gpuready.core.props import as_flag, dig
from gpuready.record import record

DRA_ADVERTISER = "dra"
"""``Chart.advertiser`` of the charts that serve DRA pools (the DRA advertiser's registry key)."""


@record(frozen=True, kw_only=True, slots=True)
class Chart:
    """One Helm chart as gpuready pins it."""

    kind: str
    """The ``gpuStack.kind`` that installs it."""
    name: str
    """Chart name in its repository."""
    version: str
    repository: str
    namespace: str
    """Default release namespace (never ``default``)."""
    nfd_key: str
    """Values key of the bundled node-feature-discovery subchart (empty: the chart bundles none)."""
    version_prefix: str
    """``v`` when the chart's versions start with it."""
    advertiser: str = "extended-resources"
    """Key of the advertiser (``advertisers.registry``) whose pools the chart serves."""
    disable_openapi_validation: bool = False
    """Helm's ``--disable-openapi-validation`` on upgrade: the GPU Operator applies its new CRDs in a pre-upgrade
    hook (``operator.upgradeCRD``), and its values.yaml (L87-89) says that "requires --disable-openapi-validation
    flag to be passed during helm upgrade" (the new ClusterPolicy is validated before the hook ran)."""
    cluster_apis: tuple[str, ...] = ()
    """API resources (``group/version/Kind``) the chart's own validations require the cluster to serve: offline,
    ``helm template --api-versions`` must name them."""
    experimental: bool = False
    """Upstream marks the stack experimental (the plan and the support matrix say so)."""
    owned: tuple[Owned, ...] = ()
    """The value paths gpuready decides in the chart, each with its owner (``owned_values``)."""
    inert: tuple[tuple[str, ...], str] = ((), "")
    """Values sections a release of it renders into nothing, and why (refused: never silently ignored)."""
    free_form: tuple[str, ...] = ()
    """Value paths under which gpuready's keys are not chart keys (label keys, config names, file names): the
    fidelity test and ``extra_values`` skip below them."""


def gpu_cluster_deployed(values: Mapping[str, Any]) -> bool:
    """Whether GPU Operator chart ``values`` deploy the GPUCluster (``gpuCluster.deployCR``, default false: GO
    values.yaml L575-576), read as Helm reads a boolean."""
    return as_flag(dig(values, "gpuCluster", "deployCR")) is True
