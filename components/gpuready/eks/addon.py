"""The resource EKS installs managed add-ons with, as gpuready reads any program's (``CloudProfile.addon_resource``).
Pure."""

from __future__ import annotations

from gpuready.core.clouds.addon_resource import AddonResource

ADDON_RESOURCE = AddonResource(
    type="aws:eks/addon:Addon",
    title="EKS add-on",
    name_field="addonName",
    version_field="addonVersion",
    values_field="configurationValues",
)
"""``aws.eks.Addon`` (pulumi-aws 7.51.1 ``eks/addon.py``; botocore eks ``CreateAddonRequest``: ``addonName``,
``addonVersion``, ``configurationValues``, a JSON string)."""
