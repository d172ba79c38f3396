"""Install the GPU stack a stack's settings planned (stack programs): the right component, or nothing."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, Sequence

import pulumi

from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan
from gpuready.errors import RegistrationError
from gpuready.gpu_stack.release_component import GpuStackRelease, GpuStackReleaseArgs, PoolInput


def release_classes(entry: ReleaseEntry) -> tuple[type[GpuStackRelease], type[GpuStackReleaseArgs]]:
    """The component class of a stack kind's registration entry and its Args, from the entry's module."""
    module = importlib.import_module(entry.module)
    component, args = getattr(module, entry.name, None), getattr(module, f"{entry.name}Args", None)
    if not (isinstance(component, type) and issubclass(component, GpuStackRelease)):
        raise RegistrationError(f"{entry.module} has no chart component {entry.name} (a GpuStackRelease)")
    if not (isinstance(args, type) and issubclass(args, GpuStackReleaseArgs)):
        raise RegistrationError(f"{entry.module} has no {entry.name}Args (a GpuStackReleaseArgs)")
    return component, args


class _Components(Mapping[str, type[GpuStackRelease]]):
    """Kind -> its component class, each imported when first asked for (issue #32: a stack imports its own kind's
    component only)."""

    def __init__(self, entries: Mapping[str, ReleaseEntry]) -> None:
        self._entries = entries
        self._loaded: dict[str, type[GpuStackRelease]] = {}

    def __getitem__(self, kind: str) -> type[GpuStackRelease]:
        found = self._loaded.get(kind)
        if found is None:
            found = self._loaded[kind] = release_classes(self._entries[kind])[0]
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


STACK_COMPONENTS: Mapping[str, type[GpuStackRelease]] = _Components(CHART_COMPONENTS)
"""The component of each stack kind that installs a chart, from its registration entry (``GpuStackKind.component``;
``kinds.STACK_CHARTS`` has the same keys), imported on first ask."""


def install_gpu_stack(
    name: str,
    pools: Sequence[PoolInput],
    plan: GpuStackPlan,
    provider: pulumi.ProviderResource | None,
    opts: pulumi.ResourceOptions | None = None,
) -> GpuStackRelease | None:
    """The plan's component (``STACK_COMPONENTS``, made once, with the settings); None for ``none`` and ``external``
    stacks."""
    component = STACK_COMPONENTS.get(plan.spec.kind)
    if component is None:
        return None
    return component.from_plan(name, plan, pools=pools, provider=provider, opts=opts)
