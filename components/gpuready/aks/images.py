"""AKS node image families for GPU pools, one row each (``ImageFacts``). Pure.

Sources: azure-native 3.29.0 ``OSSKU`` (``tests/fidelity/test_aks_enums.py``); AKS installs the driver and toolkit
on both (learn.microsoft.com ``nvidia-gpu-operator``) unless ``gpuProfile.driver=None``, and runs no device plugin.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.clouds.images import ImageFacts, on_every_arch

IMAGES: Mapping[str, ImageFacts] = {
    "ubuntu": ImageFacts(title="AKS Ubuntu", api_names=on_every_arch("Ubuntu")),
    "azurelinux": ImageFacts(title="AKS Azure Linux", api_names=on_every_arch("AzureLinux")),
}
"""Image family -> its facts; the first is the default."""
