"""What a stack on a cloud is wired with (``StackWiring``): its stack adapter, its settings model, the example a new
project starts with and the region the pools go to. Read by the stack program, the stack settings, ``gpuready new``
and the pool outputs. Pure."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol

from gpuready.core import offerings
from gpuready.core.clouds.named import NamedCloud
from gpuready.core.clouds.offline_answers import OfflineAnswers
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.core.clouds.addon_resource import AddonResource
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues
    from gpuready.core.config_model.cloud_settings import CloudSettingsConfig
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

    @property
    @abstractmethod
    def settings(self) -> type[CloudSettingsConfig]:
        """The cloud's settings model (``<cloud>/settings_model.py``): its own ``gpuready:*`` keys, which of them a
        stack on it must set and which the cluster's kubeconfig look-up needs. Imported when first asked for: pydantic
        loads only where a stack's config is read (``check``, ``label`` and ``verify`` start without it)."""

    @property
    @abstractmethod
    def settings_values(self) -> type[CloudSettingsValues]:
        """The light class of the cloud's settings (``<cloud>/settings_keys.py``, no pydantic; ``settings``
        subclasses it): what a valid stack's keys become, with the formats they are checked in
        (``config_model.fast``)."""

    exec_credentials: ClassVar[str | None] = None
    """``module:function`` recognising a kubeconfig user's exec plugin that this cloud's library runs in-process
    (``gpuready.kube.exec_credentials``: EKS's ``aws eks get-token``, minted with botocore); None: none."""
    example_pool: ClassVar[str]
    """One GPU pool valid on this cloud, as ``gpuready:nodePools`` YAML (the pool a new project starts with)."""
    example_gpu_stack: ClassVar[str] = ""
    """The ``gpuready:gpuStack`` the example pool needs (empty: none to install)."""
    tags_are_labels: ClassVar[bool] = False
    """Whether ``gpuready:tags`` become cloud labels with label syntax (GCP resource labels)."""

    region_settings: ClassVar[tuple[str, ...]] = ()
    """Provider config keys (``aws:region``) that name the region the pools go to; the first one set wins."""
    offerings_package: ClassVar[str | None] = None
    """Package whose ``offerings.json`` lists the regions offering the catalog's types; None: not checked."""
    offerings_unchecked: ClassVar[str] = ""
    """What is not checked about regional offerings on this cloud, and why (a cloud without offerings data)."""

    def stack_settings_problems(
        self, settings: CloudSettingsValues, pools: Sequence[GpuPoolSpec], prefix: str
    ) -> list[Problem]:
        """Problems of the stack's cloud settings (``settings``: its ``settings`` model) given its pools (GKE: node
        locations and per-zone sizes)."""
        return []

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
