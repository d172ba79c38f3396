"""What a stack on a cloud is wired with (``StackWiring``): its stack adapter, required and optional settings, the
example a new project starts with, the cluster's kubeconfig lookup and the region the pools go to. Read by the
stack program, the stack settings, ``gpuready new`` and the pool outputs. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from gpuready.core import offerings
from gpuready.core.clouds.named import NamedCloud
from gpuready.core.clouds.offline_answers import OfflineAnswers
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.addon_resource import AddonResource
    from gpuready.core.config_model.settings_model import StackSettingsConfig
    from gpuready.core.specs import GpuPoolSpec


class StackWiring(NamedCloud, Protocol):
    """How a stack on the cloud is wired."""

    health_agent_adapter: ClassVar[str | None] = None
    """``module:function`` installing the cloud's installable health agent (``health.agent.INSTALLED_AGENT``)."""
    offline_answers: ClassVar[OfflineAnswers] = OfflineAnswers()
    """What the cloud's provider would answer that offline plans fake: computed outputs and invoke results."""
    addon_resource: ClassVar[AddonResource | None] = None
    """The resource the cloud installs managed add-ons with (the health agent's), None where it has none."""
    stack_adapter: ClassVar[str]
    """Module of the cloud's stack-program adapter (``build_pool``, ``cluster_kubeconfig``; it imports the cloud's
    Pulumi SDK, so ``gpuready.stack_adapters`` loads it only for the stack's cloud)."""
    required_settings: ClassVar[tuple[str, ...]] = ()
    """``gpuready:*`` keys a stack on this cloud must set besides ``cloud``, ``clusterName`` and ``nodePools``."""
    optional_settings: ClassVar[tuple[str, ...]] = ()
    """Other ``gpuready:*`` wiring keys of this cloud (``gpuready new`` offers a flag for each)."""
    example_pool: ClassVar[str]
    """One GPU pool valid on this cloud, as ``gpuready:nodePools`` YAML (the pool a new project starts with)."""
    example_gpu_stack: ClassVar[str] = ""
    """The ``gpuready:gpuStack`` the example pool needs (empty: none to install)."""
    cluster_target_setting: ClassVar[tuple[str, str] | None] = None
    """(config key, ``ClusterTarget`` field) the cluster's kubeconfig lookup needs, if any."""
    tags_are_labels: ClassVar[bool] = False
    """Whether ``gpuready:tags`` become cloud labels with label syntax (GCP resource labels)."""

    def stack_settings_problems(
        self, settings: StackSettingsConfig, pools: Sequence[GpuPoolSpec], prefix: str
    ) -> list[Problem]:
        """Problems of the stack's cloud settings given its pools (GKE: node locations and per-zone sizes)."""
        return []

    region_settings: ClassVar[tuple[str, ...]] = ()
    """Provider config keys (``aws:region``) that name the region the pools go to; the first one set wins."""
    offerings_package: ClassVar[str | None] = None
    """Package whose ``offerings.json`` lists the regions offering the catalog's types; None: not checked."""
    offerings_unchecked: ClassVar[str] = ""
    """What is not checked about regional offerings on this cloud, and why (a cloud without offerings data)."""

    def region(self, settings: Mapping[str, str | None]) -> str | None:
        """The region the pools go to, from the stack's provider config (config key -> value or None)."""
        return next((value for key in self.region_settings if (value := settings.get(key))), None)

    def offering_warning(self, spec: GpuPoolSpec, region: str | None) -> str | None:
        """The warning when ``region`` does not offer the pool's instance type (``offerings.offering_warning``);
        None when it does, when no region is set, or when the cloud has no offerings data."""
        if self.offerings_package is None:
            return None
        data = offerings.load(self.offerings_package)
        return offerings.offering_warning(self.title, spec.resolved.gpu.instance_type, region, data)
