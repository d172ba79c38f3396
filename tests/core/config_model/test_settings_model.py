"""The stack's settings model (``stack_config_model``: ``StackSettingsConfig``'s cloud-neutral keys joined with
every cloud's settings model): every ``gpuready:*`` key, camelCase, unknown keys refused with a close suggestion;
values as the engine passes them (``"true"``, ``"900"``, arrays as JSON text) decoded in this one place."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field, create_model

from gpuready.core.config_model import settings_model
from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.cloud_settings import CloudSettingsConfig
from gpuready.core.config_model.problems import validate
from gpuready.core.config_model.settings_model import (
    StackSettingsConfig,
    array_keys,
    cloud_settings_models,
    settings_keys,
    stack_config_model,
)
from gpuready.errors import ConfigError, Problem, RegistrationError

BASE = {"cloud": "eks", "clusterName": "ml", "nodePools": "- {name: a}"}
SETTINGS_KEYS = settings_keys()


def _given(**extra: Any) -> Any:
    model: ConfigModel = validate(stack_config_model(), StackSettingsConfig.given({**BASE, **extra}), "gpuready:")
    return model


def _problems(**extra: Any) -> tuple[Problem, ...]:
    with pytest.raises(ConfigError) as raised:
        _given(**extra)
    return raised.value.problems


def test_engine_text_is_decoded() -> None:
    model = _given(
        verify="true", verifyTimeoutSeconds="1200", eksSubnetIds='["subnet-0aaaaaaa","subnet-0bbbbbbb"]', tags="[]"
    )
    assert (model.verify, model.verify_timeout_seconds) == (True, 1200)
    assert model.eks_subnet_ids == ["subnet-0aaaaaaa", "subnet-0bbbbbbb"]
    assert array_keys() == ("tags", "eksSubnetIds", "gkeNodeLocations", "verifySkipPools", "karpenterFeatureGates")


def test_empty_values_are_unset() -> None:
    assert _given(gkeLocation="", eksSubnetIds="").gke_location == ""


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"binPackScheduler": "{}"}, Problem("gpuready:binPackScheduler", "unknown key", None, sorted(SETTINGS_KEYS),
                                             "did you mean 'binpackScheduler'?")),
        ({"clustername": "x"}, Problem("gpuready:clustername", "unknown key", None, sorted(SETTINGS_KEYS),
                                       "did you mean 'clusterName'?")),
        ({"verify": "yes"}, Problem("gpuready:verify", "must be true or false", "yes")),
        ({"verifyTimeoutSeconds": "0"}, Problem("gpuready:verifyTimeoutSeconds",
                                                "must be a whole number of seconds, at least 1", "0", (), "e.g. 900")),
        ({"eksSubnetIds": "subnet-0aaaaaaa"}, Problem("gpuready:eksSubnetIds", "must be a list", "subnet-0aaaaaaa")),
        ({"tags": {"a": "b"}}, Problem("gpuready:tags", "must be a list of key=value strings", {"a": "b"})),
        ({"cloud": "ecs"}, Problem("gpuready:cloud", "unknown cloud", "ecs", ("eks", "aks", "gke"),
                                   "did you mean 'eks'? pulumi config set gpuready:cloud eks|aks|gke")),
    ],
)  # fmt: skip
def test_bad_settings(extra: dict[str, Any], expected: Problem) -> None:
    assert _problems(**extra) == (expected,)


def test_kubeconfig_content_is_never_shown() -> None:
    (problem,) = _problems(kubeconfig={"clusters": ["tok3n-abc"]})
    assert problem.path == "gpuready:kubeconfig"
    assert problem.value is None
    assert "tok3n-abc" not in str(problem)


def test_required_keys_say_how_to_set_them() -> None:
    with pytest.raises(ConfigError) as raised:
        validate(stack_config_model(), StackSettingsConfig.given({"cloud": "", "clusterName": ""}), "gpuready:")
    assert [(p.path, p.hint) for p in raised.value.problems] == [
        ("gpuready:cloud", "pulumi config set gpuready:cloud <value>"),
        ("gpuready:clusterName", "pulumi config set gpuready:clusterName <value>"),
        ("gpuready:nodePools", "a YAML list of pools; see docs/pool-keys.md"),
    ]


def test_the_joined_model_is_the_core_keys_with_every_cloud_s_after_tags() -> None:
    core = [field.alias or name for name, field in StackSettingsConfig.model_fields.items()]
    clouds = [key for model in cloud_settings_models() for key in model.stack_keys()]
    cut = core.index("tags") + 1
    assert (*core[:cut], *clouds, *core[cut:]) == SETTINGS_KEYS
    assert clouds == [
        "eksNodeRoleArn", "eksSubnetIds", "aksResourceGroup", "aksVnetSubnetId", "gkeLocation", "gkeNodeLocations",
        "gkeServiceAccount",
    ]  # fmt: skip
    assert not set(core) & set(clouds)


def test_every_stack_key_has_a_description() -> None:
    missing = [name for name, field in stack_config_model().model_fields.items() if not field.description]
    assert missing == []


def test_problems_come_in_key_order_across_the_core_and_the_clouds() -> None:
    problems = _problems(tags="[1", eksNodeRoleArn="nodes", gkeLocation="x", verify="yes")
    assert [p.path for p in problems] == [
        "gpuready:tags", "gpuready:eksNodeRoleArn", "gpuready:gkeLocation", "gpuready:verify",
    ]  # fmt: skip


def test_a_key_two_models_declare_fails_when_the_stack_model_is_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    clash = create_model(
        "ClashSettingsConfig", __base__=CloudSettingsConfig, tags=(list[str], Field(default=[], description="X."))
    )
    monkeypatch.setattr(settings_model, "cloud_settings_models", lambda: (clash,))
    stack_config_model.cache_clear()
    try:
        with pytest.raises(RegistrationError, match=r"ClashSettingsConfig\.tags: a key another model declares too"):
            stack_config_model()
    finally:
        stack_config_model.cache_clear()
