"""The node checks of each GPU advertiser: what verification expects a node to advertise. Pure: no I/O.

The facts (resource names, allocatable, which resources are GPUs) live with the advertiser in
``gpuready.core.advertisers``; the checks that turn a node's view into findings live here, one entry per
registered advertiser (``core.advertisers.registry.ADVERTISERS``), chosen by the expectation's ``advertiser``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gpuready.core.advertisers.dra import DYNAMIC_RESOURCES
from gpuready.core.advertisers.extended_resources import EXTENDED_RESOURCES
from gpuready.verify.dra_checks import check_dra_node
from gpuready.verify.expectations import Expectation
from gpuready.verify.findings import Finding
from gpuready.verify.nodes import NodeView
from gpuready.verify.resource_checks import check_resources

NodeCheck = Callable[[NodeView, Expectation], list[Finding]]

NODE_CHECKS: Mapping[str, NodeCheck] = {EXTENDED_RESOURCES.key: check_resources, DYNAMIC_RESOURCES.key: check_dra_node}
"""Advertiser registry key -> the findings about what a node advertises."""


def check_advertised(view: NodeView, expectation: Expectation) -> list[Finding]:
    """Findings about the GPU resources ``view`` advertises, by the checks of the expectation's advertiser."""
    return NODE_CHECKS[expectation.advertiser](view, expectation)
