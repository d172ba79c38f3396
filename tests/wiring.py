"""Each cloud's own stack keys, valid, for settings the tests build by hand (``StackSettings.cloud_settings``)."""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.config_model.cloud_settings import CloudSettingsConfig

WIRING: Mapping[str, Mapping[str, object]] = {
    "eks": {"eksNodeRoleArn": "arn:aws:iam::123456789012:role/gpu-nodes", "eksSubnetIds": ["subnet-0a1b2c3d"]},
    "aks": {"aksResourceGroup": "rg-ml"},
    "gke": {"gkeLocation": "us-central1-a"},
}


def cloud_settings(cloud: str, **keys: object) -> CloudSettingsConfig:
    """``cloud``'s settings model over its keys in ``WIRING``, with ``keys`` (stack-file spelling) on top."""
    return cloud_profile(cloud).settings.model_validate({**WIRING[cloud], **keys})
