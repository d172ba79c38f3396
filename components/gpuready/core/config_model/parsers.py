"""The parsers of the stack config's settings: by the shape table when the value is valid (``fast``, no pydantic),
else by the pydantic models, which word every problem. Pure.

The light classes the fast path builds (``*_values.py``) and the models that subclass them (``*_model.py``) do not
import this module; the models load here only for a value the fast path refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpuready.core.clouds.registry import registered_settings_values
from gpuready.core.config_model import fast
from gpuready.core.config_model.cloud_keys import CloudSettingsValues
from gpuready.core.config_model.gpu_stack_values import GpuStackValues
from gpuready.core.config_model.kueue_values import KueueValues
from gpuready.core.config_model.stack_values import StackValues, joined
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.kueue.spec import KueueSpec
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import ConfigError, Problem

if TYPE_CHECKING:
    from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec
    from gpuready.core.clouds.stack_wiring import StackWiring


def split_settings(
    values: Mapping[str, object], wiring: StackWiring | None
) -> tuple[StackValues, CloudSettingsValues | None]:
    """``values`` (``stack_values.given``) checked once against every key a stack may set (every cloud's too), split
    into the cloud-neutral keys and the stack's cloud's own (``wiring``: its profile; None for an unknown cloud);
    ``ConfigError`` with every problem."""
    own = None if wiring is None else wiring.settings_values
    formats = registered_settings_values()  # every cloud's keys (their formats' modules), loading no profile
    found = fast.light(joined(), values) if formats else None
    if found is None:
        from gpuready.core.config_model.settings_model import split_settings_model  # noqa: PLC0415 - pydantic words a refused config

        return split_settings_model(values, None if wiring is None else wiring.settings)
    core = fast.made(StackValues, {name: found[name] for name in fast.field_names("StackSettingsConfig")})
    if own is None:
        return core, None
    return core, fast.made(own, {name: found[name] for name in fast.field_names(fast.shape_of(own))})


def parse_gpu_stack(raw: object, path: str = "gpuStack") -> GpuStackSpec:
    """Parse ``raw`` (a mapping, or just the kind as a string); raise ``ConfigError`` listing every problem."""
    if isinstance(raw, str):
        raw = {"kind": raw}

    def slow() -> GpuStackSpec:
        from gpuready.core.config_model.gpu_stack_model import parse_gpu_stack_model  # noqa: PLC0415 - pydantic words a refused config

        return parse_gpu_stack_model(raw, path)

    return fast.validated("GpuStackConfig", raw, lambda config: GpuStackValues.spec(config, path), slow)


def parse_kueue(raw: object, pools: Sequence[GpuPoolSpec], path: str = "kueue") -> KueueSpec:
    """Parse ``raw`` (a mapping); raise ``ConfigError`` listing every problem."""

    def slow() -> KueueSpec:
        from gpuready.core.config_model.kueue_model import parse_kueue_model  # noqa: PLC0415 - pydantic words a refused config

        return parse_kueue_model(raw, pools, path)

    return fast.validated("KueueConfig", raw, lambda config: KueueValues.spec(config, pools, path), slow)


YamlText = Callable[[object, str, list[Problem], str], object]
"""The stack settings' reader of a YAML-text key: ``(raw, path, problems, hint) -> data or None``."""


def stack_kueue(raw: object, pools: Sequence[GpuPoolSpec], problems: list[Problem], yaml_text: YamlText) -> KueueSpec:
    """``gpuready:kueue`` (YAML text or data) for the stack's pools; absent: ``KueueSpec()`` (the queued pools'
    objects). Problems are added to ``problems``."""
    path = "gpuready:kueue"
    data = None if raw is None or raw == "" else yaml_text(raw, path, problems, "e.g. {flavors: all}")
    if data is None:
        return KueueSpec()
    try:
        return parse_kueue(data, pools, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return KueueSpec()


def parse_binpack(raw: object, pools: Sequence[GpuPoolSpec], path: str = "binpackScheduler") -> BinPackSchedulerSpec:
    """Parse ``raw`` (a mapping); raise ``ConfigError`` listing every problem with its path under ``path``. The
    scheduler's light classes and rules load only for a stack that deploys the scheduler (issue #32)."""
    from gpuready.core.config_model.scheduler_values import BinPackSchedulerValues  # noqa: PLC0415 - as the docstring says

    def slow() -> BinPackSchedulerSpec:
        from gpuready.core.config_model.scheduler_model import parse_binpack_model  # noqa: PLC0415 - pydantic words a refused config

        return parse_binpack_model(raw, pools, path)

    build: Callable[[Any], BinPackSchedulerSpec] = lambda config: BinPackSchedulerValues.spec(config, pools, path)  # noqa: E731
    return fast.validated("BinPackSchedulerConfig", raw, build, slow)
