"""A stack's cloud keys (``parse_stack_settings`` over the joined settings model): the stack's cloud's keys become
its ``cloud_settings``; another cloud's key is checked in its format exactly as on its own cloud and then not used
(as before each cloud had its own model); a cloud's required keys are asked for on its stacks only."""

from __future__ import annotations

import pytest
from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from gpuready.core.clouds.registry import cloud_profile, cloud_profiles
from gpuready.core.cluster_kubeconfig import ClusterTarget
from gpuready.core.config_model.cloud_settings import CloudSettingsConfig
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError, Problem, RegistrationError
from gpuready.gke.settings_keys import GkeSettingsValues

GKE = {
    "cloud": "gke",
    "clusterName": "ml",
    "gkeLocation": "us-central1-a",
    "nodePools": "- {name: l4, instanceType: g2-standard-8, minSize: 0, maxSize: 2}",
}
ROLE = "arn:aws:iam::123456789012:role/gpu-nodes"


def _problems(values: dict[str, object]) -> tuple[Problem, ...]:
    with pytest.raises(ConfigError) as raised:
        parse_stack_settings(values)
    return raised.value.problems


def test_the_stack_s_cloud_keys_become_its_cloud_settings() -> None:
    settings = parse_stack_settings({**GKE, "gkeNodeLocations": '["us-central1-a"]'})
    wiring = GkeSettingsValues.of(settings)
    assert (wiring.gke_location, wiring.gke_node_locations, wiring.gke_service_account) == (
        "us-central1-a",
        ["us-central1-a"],
        "",
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [("eksNodeRoleArn", ROLE), ("eksSubnetIds", '["subnet-0a1b2c3d"]'), ("aksResourceGroup", "rg-ml")],
)
def test_another_cloud_s_valid_key_is_accepted_and_not_used(key: str, value: str) -> None:
    settings = parse_stack_settings({**GKE, key: value})
    assert type(settings.cloud_settings) is GkeSettingsValues
    assert settings == parse_stack_settings(GKE)


@pytest.mark.parametrize(
    ("key", "value", "path"),
    [
        ("eksNodeRoleArn", "gpu-nodes", "gpuready:eksNodeRoleArn"),
        ("eksSubnetIds", '["sg-0123456789abcdef0"]', "gpuready:eksSubnetIds[0]"),
        ("aksVnetSubnetId", "gpu-subnet", "gpuready:aksVnetSubnetId"),
    ],
)
def test_another_cloud_s_bad_key_is_refused_as_on_its_own_cloud(key: str, value: str, path: str) -> None:
    on_gke = _problems({**GKE, key: value})
    own = {"eksNodeRoleArn": "eks", "eksSubnetIds": "eks", "aksVnetSubnetId": "aks"}[key]
    on_own = _problems({"cloud": own, "clusterName": "ml", "nodePools": "[]", key: value})
    assert [p.path for p in on_gke] == [path]
    assert on_gke[0] == next(p for p in on_own if p.path == path)


@pytest.mark.parametrize("profile", cloud_profiles(), ids=lambda p: p.name)
def test_each_cloud_asks_for_its_required_keys_only(profile: object) -> None:
    name = getattr(profile, "name")  # noqa: B009 - parametrised over the profiles
    required = cloud_profile(name).settings.required_keys()
    problems = _problems({"cloud": name, "clusterName": "ml", "nodePools": "[]"})
    asked = [p for p in problems if p.problem.startswith("is required when")]
    assert [p.path for p in asked] == [f"gpuready:{key}" for key in required]
    assert all(
        (p.problem, p.hint) == (f"is required when gpuready:cloud is {name}", f"pulumi config set {p.path} ...")
        for p in asked
    )


@pytest.mark.parametrize("profile", cloud_profiles(), ids=lambda p: p.name)
def test_every_cloud_key_is_described_and_empty_by_default(profile: object) -> None:
    model = cloud_profile(getattr(profile, "name")).settings  # noqa: B009
    assert model.stack_keys()
    for name, field in model.model_fields.items():
        assert field.description, name
        assert field.default in ("", []), name
    assert set(model.target_keys()) <= set(model.required_keys())


def test_the_cluster_target_takes_the_stack_s_cloud_settings() -> None:
    settings = parse_stack_settings(GKE)
    target = ClusterTarget(settings.cloud, settings.cluster_name, settings.cloud_settings)
    assert GkeSettingsValues.of(target).gke_location == "us-central1-a"


@pytest.mark.parametrize(
    ("field", "message"),
    [
        ((str, Field(default="")), "needs its description"),
        ((str, Field(description="X: a key.")), "defaults to empty"),
        ((str, Field(default="x", description="X: a key.")), "got 'x'"),
    ],
    ids=["no-description", "no-default", "non-empty-default"],
)
def test_an_incomplete_cloud_model_fails_when_it_is_made(field: tuple[type, FieldInfo], message: str) -> None:
    with pytest.raises(RegistrationError, match=message):
        create_model("XSettingsConfig", __base__=CloudSettingsConfig, x_key=field)
