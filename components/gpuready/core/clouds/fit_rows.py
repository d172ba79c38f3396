"""How a GPU stack kind fits a pool's platform, one row per driver owner (``FitRow``): the vocabulary of the
driver-ownership table (``gpu_stack.stack_fits``) and of the rows a cloud keeps for its platforms' own device plugins
(``NodeSetup.platform_fits``). Pure."""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.record import record


@record(frozen=True, kw_only=True, slots=True)
class FitRow:
    """Whether a kind serves a platform, and how (``{image}`` in the texts: the pool's image as messages name it)."""

    ok: bool
    summary: str
    hint: str = ""
    hint_cloud_driver: str | None = None
    """The hint instead of ``hint`` on clouds whose own driver serves NVIDIA's device plugin."""
    operator_driver: bool = False
    """The GPU Operator installs the driver and container toolkit on these nodes."""


ByDriver = Mapping[str, FitRow]
"""Driver owner (``cloud``, ``operator``) -> row."""


def same(row: FitRow) -> ByDriver:
    """The same row for either driver owner."""
    return {"cloud": row, "operator": row}
