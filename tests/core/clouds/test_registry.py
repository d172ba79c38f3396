"""The cloud registry holds profile objects registered from above the core (``gpuready.plugins``): once per cloud,
named by their profiles in registration order, a clear error for an unknown cloud, an empty registry, a name that
is no word or a second object, and no profile loaded by module path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import REGISTRY, CloudRegistry, UnregisteredCloudError, cloud_names, cloud_profile
from gpuready.errors import RegistrationError
from gpuready.plugins import CLOUD_PROFILES

ROOT = Path(__file__).resolve().parents[3]


def test_the_registration_module_registered_every_cloud_in_order() -> None:
    assert [profile.name for profile in REGISTRY.profiles()] == list(cloud_names()) == [p.name for p in CLOUD_PROFILES]
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
