"""The one interface behind which a GPU stack kind lives (``gpuStack.kind``). Pure.

A kind owns every fact that depends on which NVIDIA stack serves the pools: the chart it installs (none for
``none`` and ``external``), the pools it serves (by their advertiser), which parts it runs (GFD, NFD, the MIG
manager, the operator's driver and DCGM), the release settings it refuses because it has no part they would
change, the builder of its chart's values, its rows of the driver-ownership table on NVIDIA's device plugin
(``stack_fits``) and what a plan notes about its release. Each kind is one module under ``kinds/``, registered once
in ``kinds.STACK_KIND_OBJECTS``; nothing else branches on a kind's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from gpuready.core.clouds.fit_rows import ByDriver
from gpuready.core.component_entry import ReleaseEntry
from gpuready.core.gpu_stack.charts import DRA_ADVERTISER, Chart
from gpuready.core.pool_parts import DRIVER_OWNERS
from gpuready.errors import RegistrationError
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.gpu_stack.stack_objects import ReleaseObject
    from gpuready.core.health.agent import HealthSpec
    from gpuready.core.specs import GpuPoolSpec

GfdRun = Literal["always", "setting", "never"]
"""Whether a kind runs GPU Feature Discovery: always, as ``gfd`` says, or never."""


class StackSettings(Protocol):
    """The release settings a values builder reads (``GpuStackSpec`` has them)."""

    @property
    def kind(self) -> str: ...
    @property
    def stack_kind(self) -> GpuStackKind: ...
    @property
    def nfd(self) -> str: ...
    @property
    def gfd(self) -> bool: ...
    @property
    def mig_reboot(self) -> bool: ...
    @property
    def monitoring(self) -> bool | None: ...
    @property
    def health(self) -> HealthSpec: ...
    @property
    def effective_namespace(self) -> str: ...


class ValuesBuilder(Protocol):
    """Builds a kind's release values for ``pools``; config maps and other objects go into ``objects``."""

    def __call__(
        self, profile: CloudProfile, pools: Sequence[GpuPoolSpec], settings: StackSettings, objects: list[ReleaseObject]
    ) -> dict[str, Any]: ...


PlanNote = Callable[[str, Mapping[str, Any]], "str | None"]
"""What a plan says about a planned release of chart ``name`` with ``values`` of this kind (None: nothing)."""


@record(frozen=True, kw_only=True, slots=True)
class Refusal:
    """Why a kind refuses a release setting (it has no part the setting would change)."""

    problem: str
    hint: str


PROVIDER_HINT = "Pass the cluster's Kubernetes provider in the resource options."
"""The last sentence of every chart component's description."""


def lacks(**why: str) -> dict[str, Refusal]:
    """Refusals of the settings of parts a stack does not run (the setting would do nothing)."""
    return {key: Refusal(problem=f"{why[key]}, so {key} would do nothing", hint=f"remove {key}") for key in why}


@record(frozen=True, kw_only=True, slots=True)
class GpuStackKind:
    """One ``gpuStack.kind``: its chart, the pools it serves, the parts it runs and its values."""

    key: str
    """Its ``gpuStack.kind``."""
    nvidia_fits: ByDriver
    """Its rows on pools whose platform brings no device plugin (``nvidia``: NVIDIA's serves), per driver owner
    (``stack_fits``)."""
    chart: Chart | None = None
    """The chart it installs; None: gpuready installs nothing (``none``, ``external``)."""
    serves: str | None = None
    """Key of the advertiser (``advertisers.registry``) whose pools it serves; None: any pool (``external``)."""
    gfd: GfdRun = "never"
    nfd_without_gfd: bool = False
    """Its release runs NFD even without GFD (the GPUCluster operator labels nodes from NFD's PCI labels)."""
    mig_manager: bool = False
    """It runs NVIDIA's MIG manager, which applies the pools' MIG layouts."""
    driver_installer: bool = False
    """It can install the NVIDIA driver (one driver owner and one OS image for all its pools)."""
    refused: Mapping[str, Refusal] = field(default_factory=dict)
    """Release settings (camelCase) it refuses away from their default, with the reason."""
    mig_note: str = ""
    """Appended to the refusal of a MIG layout (why its release applies none)."""
    plugin_note: str = ""
    """Appended to the refusal of a device-plugin pool (why its release serves none)."""
    values: ValuesBuilder | None = None
    """The builder of its chart's values (set exactly when ``chart`` is)."""
    component: ReleaseEntry | None = None
    """Its one registration entry: the chart's Pulumi component and its schema text (set exactly when ``chart``
    is); the facade, the stack program's install and the component package derive from it."""
    plan_note: PlanNote | None = None
    """What a plan says about its release (``cli.release_section``); None: nothing."""

    def __post_init__(self) -> None:
        lacking = [part for part in ("values", "component") if (getattr(self, part) is None) != (self.chart is None)]
        if lacking:
            raise RegistrationError(
                f"GPU stack kind {self.key!r} {'lacks' if self.chart else 'installs no chart but has'} "
                f"{', '.join(lacking)} (set exactly when chart is)"
            )
        if set(self.nvidia_fits) != set(DRIVER_OWNERS):
            raise RegistrationError(
                f"GPU stack kind {self.key!r} has nvidia_fits rows for {sorted(self.nvidia_fits)}; it needs one per "
                f"driver owner: {', '.join(DRIVER_OWNERS)}"
            )

    @property
    def installs_chart(self) -> bool:
        return self.chart is not None

    @property
    def serves_dra(self) -> bool:
        """Its chart serves DRA pools (so it needs the cluster's version, 1.34+)."""
        return self.serves == DRA_ADVERTISER

    def runs_gfd(self, gfd: bool) -> bool:
        """Whether the release runs GFD with the ``gfd`` setting."""
        return self.gfd == "always" or (self.gfd == "setting" and gfd)

    def deploys_nfd(self, nfd: str, gfd: bool) -> bool:
        """Whether the release installs its bundled NFD with these settings."""
        return nfd == "deploy" and (self.runs_gfd(gfd) or self.nfd_without_gfd)
