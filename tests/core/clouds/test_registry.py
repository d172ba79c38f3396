"""The cloud registry holds profile objects registered from above the core (``gpuready.plugins``): once per cloud,
named by their profiles in registration order, a clear error for an unknown cloud, an empty registry, a name that
is no word or a second object, and no profile loaded by module path. A cloud is registered lazily (issue #32): its
entry answers names, type prefixes, settings model and charts without the profile, which loads on first ask and
is checked against the entry."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from gpuready.core.clouds.cloud_entry import CloudEntry, owned_types
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.clouds.registry import (
    REGISTRY,
    CloudRegistry,
    UnregisteredCloudError,
    cloud_names,
    cloud_profile,
)
from gpuready.errors import RegistrationError
from gpuready.plugins import CLOUD_ENTRIES

ROOT = Path(__file__).resolve().parents[3]


def test_the_registration_module_registered_every_cloud_in_order() -> None:
    assert [profile.name for profile in REGISTRY.profiles()] == list(cloud_names()) == [e.name for e in CLOUD_ENTRIES]
    assert all(cloud_profile(name) is REGISTRY.profile(name) for name in cloud_names())


def test_the_names_are_the_registered_profiles_in_registration_order() -> None:
    registry = CloudRegistry()
    for profile in reversed(REGISTRY.profiles()):
        registry.register(profile)
    assert registry.names() == tuple(reversed(cloud_names()))


def test_registering_the_same_profile_again_changes_nothing() -> None:
    registry = CloudRegistry()
    for profile in REGISTRY.profiles():
        registry.register(profile)
        registry.register(profile)
    assert registry.profiles() == REGISTRY.profiles()


def _registered(*names: str) -> CloudRegistry:
    registry = CloudRegistry()
    for name in names:
        registry.register(REGISTRY.profile(name))
    return registry


@pytest.mark.parametrize(
    ("registry", "name", "error", "message"),
    [
        (CloudRegistry(), "eks", UnregisteredCloudError, "no cloud has a registered profile: import gpuready.plugins"),
        (_registered("eks", "aks", "gke"), "ecs", KeyError, "no cloud 'ecs'; known: eks, aks, gke"),
        (_registered("aks"), "eks", KeyError, "no cloud 'eks'; known: aks"),
    ],
)
def test_an_unknown_or_unregistered_cloud_is_a_clear_error(
    registry: CloudRegistry, name: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        registry.profile(name)


def test_an_unregistered_cloud_is_a_key_error_and_a_registration_error() -> None:
    assert issubclass(UnregisteredCloudError, KeyError)
    assert issubclass(UnregisteredCloudError, RegistrationError)
    assert str(UnregisteredCloudError("plain text")) == "plain text"


def test_a_second_object_for_a_cloud_or_a_name_that_is_no_word_fails_at_registration() -> None:
    first = REGISTRY.profile("eks")
    registry = CloudRegistry()
    registry.register(first)
    with pytest.raises(RegistrationError, match="cloud 'eks' is registered twice"):
        registry.register(type(first)())
    for bad in ("Eks", "my-cloud", "", "1cloud"):
        misnamed = type("Misnamed", (type(first),), {"name": bad, "provisioners": {}})()
        with pytest.raises(RegistrationError, match=f"names cloud {bad!r}: a name is lowercase letters"):
            CloudRegistry().register(misnamed)


def test_a_profile_whose_provisioner_names_another_cloud_fails_at_registration() -> None:
    eks, aks = REGISTRY.profile("eks"), REGISTRY.profile("aks")
    mixed = type("MixedProfile", (type(eks),), {"provisioners": {**eks.provisioners, **aks.provisioners}})()
    with pytest.raises(RegistrationError, match="is registered as 'node-pool' on 'eks'"):
        CloudRegistry().register(mixed)


def test_a_process_that_never_imports_the_registration_module_gets_the_clear_error() -> None:
    code = (
        "from gpuready.core.clouds.registry import cloud_profile\n"
        "try:\n    cloud_profile('gke')\nexcept KeyError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("no cloud has a registered profile: import gpuready.plugins first")


def _lazy(entry: CloudEntry, loads: list[str]) -> CloudEntry:
    def load() -> CloudProfile:
        loads.append(entry.name)
        return entry.load()

    return dataclasses.replace(entry, load=load)


def test_a_lazy_entry_names_its_cloud_and_loads_its_profile_once_on_first_ask() -> None:
    loads: list[str] = []
    registry = CloudRegistry()
    for entry in CLOUD_ENTRIES:
        registry.register(_lazy(entry, loads))
    assert registry.names() == cloud_names() and loads == [] and registry.loaded() == ()
    assert registry.settings("eks") is REGISTRY.profile("eks").settings and loads == []
    assert registry.charts() == {c: v for p in REGISTRY.profiles() for c, v in p.fabric.charts.items()}
    assert registry.profile("gke") is REGISTRY.profile("gke") is registry.profile("gke")
    assert loads == ["gke"] and registry.loaded() == ("gke",)
    assert registry.profiles() == REGISTRY.profiles() and loads == ["gke", "eks", "aks"]


@pytest.mark.parametrize(
    ("token", "clouds"),
    [
        ("gcp:container/nodePool:NodePool", ["gke"]),
        ("kubernetes:cloud.google.com/v1:ComputeClass", ["gke"]),
        ("aws:eks/nodeGroup:NodeGroup", ["eks"]),
        ("azure-native:containerservice:AgentPool", ["aks"]),
        ("kubernetes:karpenter.sh/v1:NodePool", ["eks", "aks"]),
        ("kubernetes:karpenter.azure.com/v1beta1:AKSNodeClass", ["aks"]),
        ("kubernetes:helm.sh/v3:Release", []),
        ("kubernetes:core/v1:Namespace", []),
    ],
)
def test_a_type_token_loads_only_the_clouds_whose_prefixes_start_it(token: str, clouds: list[str]) -> None:
    loads: list[str] = []
    registry = CloudRegistry()
    for entry in CLOUD_ENTRIES:
        registry.register(_lazy(entry, loads))
    assert [p.name for p in registry.profiles_for_type(token)] == clouds == loads


def test_every_registered_entry_owns_every_type_its_profile_names_and_its_settings_model() -> None:
    for entry in CLOUD_ENTRIES:
        profile = REGISTRY.profile(entry.name)
        assert entry.settings() is profile.settings is REGISTRY.settings(entry.name)
        assert owned_types(profile) and all(t.startswith(entry.types) for t in owned_types(profile)), entry.name


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"types": ("gcp:",)}, "owns aws:autoscaling/tag:Tag, .* under none of its registered type prefixes"),
        ({"charts": {}}, "entry pins charts {}, its profile's fabric"),
        ({"own_taint_keys": frozenset({"x"})}, "entry reserves label and taint keys"),
        ({"name": "aks"}, "cloud 'aks' loaded .*, the profile of 'eks'"),
    ],
)
def test_an_entry_that_drifted_from_its_profile_fails_when_the_profile_loads(
    change: dict[str, object], message: str
) -> None:
    eks = CLOUD_ENTRIES[0]
    registry = CloudRegistry()
    registry.register(dataclasses.replace(eks, **change))  # type: ignore[arg-type]
    name = str(change.get("name", eks.name))
    assert registry.names() == (name,)
    with pytest.raises(RegistrationError, match=message):
        registry.profile(name)


@pytest.mark.parametrize(
    ("token", "owner"),
    [
        ("aws:eks/nodeGroup:NodeGroup", "eks"),
        ("gcp:container/getCluster:getCluster", "gke"),
        ("kubernetes:karpenter.sh/v1:NodePool", None),
        ("kubernetes:core/v1:Namespace", None),
    ],
)
def test_the_sole_owner_of_a_type_is_the_one_cloud_whose_prefixes_start_it(token: str, owner: str | None) -> None:
    found = REGISTRY.sole_owner(token)
    assert (found.name if found is not None else None) == owner


def test_a_cloud_answering_offline_for_a_type_another_cloud_shares_fails_when_it_loads() -> None:
    eks, aks = CLOUD_ENTRIES[0], CLOUD_ENTRIES[1]
    registry = CloudRegistry()
    registry.register(dataclasses.replace(eks, types=(*eks.types, "azure-native:")))
    registry.register(aks)
    with pytest.raises(RegistrationError, match="cloud 'aks' answers offline for azure-native:containerservice:"):
        registry.profile("aks")
