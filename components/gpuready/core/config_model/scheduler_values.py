"""``gpuready:binpackScheduler`` as light objects and the ``BinPackSchedulerSpec`` they make. Pure, and no pydantic:
the fast path (``fast``, through ``parsers.parse_binpack``) builds them; ``scheduler_model`` (the pydantic models)
subclasses them.

The extra GPU resources the profile scores come from the stack's pools (``gpu_resources_of``), so the
scheduler weighs ``nvidia.com/gpu.shared`` and ``nvidia.com/mig-<profile>`` wherever a pool advertises them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec, gpu_resources_of, gpu_taint_keys_of
from gpuready.core.binpack.scheduler_fields import SchedulerToleration
from gpuready.core.config_model import fast
from gpuready.core.config_model.forms import Values
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import ConfigError, SpecError


class TolerationValues(Values, shape="TolerationConfig"):
    """A toleration for the scheduler's own pods (``scheduler_rules`` checks it against the GPU taint)."""

    def to_spec(self) -> SchedulerToleration:
        return SchedulerToleration(**{name: getattr(self, name) for name in fast.field_names("TolerationConfig")})


class BinPackSchedulerValues(Values, shape="BinPackSchedulerConfig"):
    """``binpackScheduler``: every key optional; unset keys keep ``BinPackSchedulerSpec``'s defaults."""

    if TYPE_CHECKING:
        tolerations: Sequence[TolerationValues] | None

    def spec(self, pools: Sequence[GpuPoolSpec], path: str = "binpackScheduler") -> BinPackSchedulerSpec:
        """The validated spec (``scheduler_rules``), its problems under ``path`` (spec paths are camelCase keys)."""
        try:
            names = fast.field_names("BinPackSchedulerConfig")
            given: dict[str, Any] = {name: getattr(self, name) for name in names if getattr(self, name) is not None}
            if self.tolerations is not None:
                given["tolerations"] = tuple(t.to_spec() for t in self.tolerations)
            return BinPackSchedulerSpec(
                gpu_resources=gpu_resources_of(pools), gpu_taint_keys=gpu_taint_keys_of(pools), **given
            )
        except SpecError as error:
            raise ConfigError(error.under(path).problems) from None
