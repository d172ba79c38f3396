"""Each cloud's own stack keys: valid ones for settings the tests build by hand (``StackSettings.cloud_settings``),
and how the stack's settings model takes or refuses one value (the cloud settings models' format tests)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.cloud_settings import CloudSettingsConfig
from gpuready.core.config_model.problems import validate
from gpuready.core.config_model.settings_model import stack_config_model
from gpuready.errors import ConfigError, Problem

WIRING: Mapping[str, Mapping[str, object]] = {
    "eks": {"eksNodeRoleArn": "arn:aws:iam::123456789012:role/gpu-nodes", "eksSubnetIds": ["subnet-0a1b2c3d"]},
    "aks": {"aksResourceGroup": "rg-ml"},
    "gke": {"gkeLocation": "us-central1-a"},
}


BASE = {"cloud": "eks", "clusterName": "c", "nodePools": "[]"}


def cloud_settings(cloud: str, **keys: object) -> CloudSettingsConfig:
    """``cloud``'s settings model over its keys in ``WIRING``, with ``keys`` (stack-file spelling) on top."""
    return cloud_profile(cloud).settings.model_validate({**WIRING[cloud], **keys})


def accepted(key: str, value: object) -> object:
    """``value`` of ``key`` as the stack's settings model keeps it (a stack on EKS: any cloud's key is checked)."""
    model: ConfigModel = validate(stack_config_model(), {**BASE, key: value}, "gpuready:")
    return model.model_dump(by_alias=True)[key]


def refusal(key: str, value: object) -> Problem:
    """The one problem the stack's settings model finds in ``value`` of ``key``."""
    with pytest.raises(ConfigError) as info:
        validate(stack_config_model(), {**BASE, key: value}, "gpuready:")
    (problem,) = info.value.problems
    return problem


def assert_refused_with_hint(key: str, value: object, path: str) -> None:
    """``value`` of ``key`` is refused at ``path``, saying what the key must be, with a hint."""
    problem = refusal(key, value)
    assert problem.path == path
    assert problem.problem.startswith("must be")
    assert problem.hint
