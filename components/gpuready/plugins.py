"""The plug-ins gpuready registers: each cloud, once (kueue's ``RegisterIntegration``), loaded on first ask.

This module sits above the core and the cloud packages: it hands each cloud to the core's registry
(``gpuready.core.clouds.registry``), which holds no module path and no cloud's name: the clouds gpuready knows, and
the order they are listed in, are ``CLOUD_ENTRIES``. Every entry point imports it before it asks anything of a
cloud: the CLI, the stack program, the policy pack, the component package's provider, the verification hook, the
facade (``import gpuready``'s public names), the tools and the tests' conftest. A profile brings its provisioners
(``CloudProfile.provisioners``), so they register with it.

A cloud is registered by what the registry answers without its profile (its name, the type-token prefixes its
profile owns) and a loader importing the profile (issue #32): a process imports a cloud's package only when it
asks that cloud something, so a GKE stack's plan imports no other cloud's package. The registry checks a loaded
profile against its entry (``CloudRegistry``). Importing this module loads no profile and no Pulumi SDK (the
profiles are pure; only adapters import an SDK, late).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpuready.core.clouds.cloud_entry import CloudEntry
from gpuready.core.clouds.registry import register_cloud

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues
    from gpuready.core.config_model.cloud_settings import CloudSettingsConfig


def _eks() -> CloudProfile:
    from gpuready.eks.profile import PROFILE  # noqa: PLC0415  # the cloud loads on first ask (issue #32)

    return PROFILE


def _eks_settings() -> type[CloudSettingsConfig]:
    from gpuready.eks.settings_model import EksSettingsConfig  # noqa: PLC0415  # its keys, without the profile

    return EksSettingsConfig


def _eks_values() -> type[CloudSettingsValues]:
    from gpuready.eks.settings_keys import EksSettingsValues  # noqa: PLC0415  # its keys' light class, no pydantic

    return EksSettingsValues


def _aks() -> CloudProfile:
    from gpuready.aks.profile import PROFILE  # noqa: PLC0415  # the cloud loads on first ask (issue #32)

    return PROFILE


def _aks_settings() -> type[CloudSettingsConfig]:
    from gpuready.aks.settings_model import AksSettingsConfig  # noqa: PLC0415  # its keys, without the profile

    return AksSettingsConfig


def _aks_values() -> type[CloudSettingsValues]:
    from gpuready.aks.settings_keys import AksSettingsValues  # noqa: PLC0415  # its keys' light class, no pydantic

    return AksSettingsValues


def _gke() -> CloudProfile:
    from gpuready.gke.profile import PROFILE  # noqa: PLC0415  # the cloud loads on first ask (issue #32)

    return PROFILE


def _gke_settings() -> type[CloudSettingsConfig]:
    from gpuready.gke.settings_model import GkeSettingsConfig  # noqa: PLC0415  # its keys, without the profile

    return GkeSettingsConfig


def _gke_values() -> type[CloudSettingsValues]:
    from gpuready.gke.settings_keys import GkeSettingsValues  # noqa: PLC0415  # its keys' light class, no pydantic

    return GkeSettingsValues


KARPENTER = "kubernetes:karpenter.sh/"
"""The NodePool every Karpenter provisioner writes (EKS Karpenter and Auto Mode, AKS node auto-provisioning)."""

CLOUD_ENTRIES: tuple[CloudEntry, ...] = (
    CloudEntry(
        "eks",
        ("aws:", KARPENTER, "kubernetes:karpenter.k8s.aws/", "kubernetes:eks.amazonaws.com/"),
        _eks,
        _eks_settings,
        _eks_values,
        {"aws-efa-k8s-device-plugin": "v0.5.30"},
    ),
    CloudEntry(
        "aks",
        ("azure-native:", KARPENTER, "kubernetes:karpenter.azure.com/"),
        _aks,
        _aks_settings,
        _aks_values,
        {"network-operator": "26.1.2"},
        own_taint_keys=frozenset({"kubernetes.azure.com/scalesetpriority"}),
    ),
    CloudEntry(
        "gke",
        ("gcp:", "kubernetes:cloud.google.com/"),
        _gke,
        _gke_settings,
        _gke_values,
        own_label_keys=frozenset({"gke-no-default-nvidia-gpu-device-plugin"}),
    ),
)
"""Every cloud, in the order clouds are listed to users: the one registration of a cloud (its name, the prefixes of
the type tokens its profile owns, the loaders of its profile, of its settings model and of its settings' light
class, its fabric charts, the label and taint keys its pools get from gpuready). The registry checks each against
its profile when that loads (``CloudRegistry``; ``tests/core/clouds/test_registry.py`` loads every one)."""

for _entry in CLOUD_ENTRIES:
    register_cloud(_entry)
