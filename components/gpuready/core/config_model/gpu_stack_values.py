"""``gpuready:gpuStack`` as a light object and the ``GpuStackSpec`` it makes. Pure, and no pydantic: the fast path
(``fast``, through ``parsers.parse_gpu_stack``) builds it; ``gpu_stack_model`` (the pydantic models) subclasses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.config_model import fast
from gpuready.core.config_model.forms import Values, rebased
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.health.agent import HealthSpec
from gpuready.errors import ConfigError, SpecError


class HealthValues(Values, shape="HealthConfig"):
    """``gpuStack.health``: who reports GPU health (``agent``) and who runs DCGM on the pools (``dcgm``)."""

    if TYPE_CHECKING:
        agent: str
        dcgm: str | None

    def to_spec(self) -> HealthSpec:
        return HealthSpec(agent=self.agent, dcgm=self.dcgm)


class GpuStackValues(Values, shape="GpuStackConfig"):
    """``gpuStack``: a kind, or a mapping with a kind and the release settings."""

    if TYPE_CHECKING:
        health: HealthValues | None

    def spec(self, path: str = "gpuStack") -> GpuStackSpec:
        """The validated spec; its own value problems (``stack_spec_problems``) under ``path``."""
        try:
            given: dict[str, Any] = {name: getattr(self, name) for name in fast.field_names("GpuStackConfig")}
            given["health"] = self.health.to_spec() if self.health is not None else HealthSpec()
            return GpuStackSpec(**given)
        except SpecError as error:
            raise ConfigError(rebased(error.problems, "gpuStack", path)) from None
