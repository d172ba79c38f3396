"""The cloud registry holds profile objects registered from above the core (``gpuready.plugins``): once per cloud,
a clear error for an unknown cloud, an unregistered one or a second object, and no profile loaded by module path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gpuready.core.clouds.registry import CLOUDS, REGISTRY, CloudRegistry, UnregisteredCloudError, cloud_profile
from gpuready.errors import RegistrationError

ROOT = Path(__file__).resolve().parents[3]


def test_the_registration_module_registered_every_cloud_in_order() -> None:
    assert [profile.name for profile in REGISTRY.profiles()] == list(CLOUDS)
    assert all(cloud_profile(name) is REGISTRY.profile(name) for name in CLOUDS)


def test_registering_the_same_profile_again_changes_nothing() -> None:
    registry = CloudRegistry(CLOUDS)
    for profile in REGISTRY.profiles():
        registry.register(profile)
        registry.register(profile)
    assert registry.profiles() == REGISTRY.profiles()


@pytest.mark.parametrize(
    ("name", "error", "message"),
    [
        ("eks", UnregisteredCloudError, "cloud 'eks' has no registered profile: import gpuready.plugins first"),
        ("ecs", KeyError, "no cloud 'ecs'; known: eks, aks, gke"),
    ],
)
def test_an_unknown_or_unregistered_cloud_is_a_clear_error(name: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        CloudRegistry(CLOUDS).profile(name)


def test_an_unregistered_cloud_is_a_key_error_and_a_registration_error() -> None:
    assert issubclass(UnregisteredCloudError, KeyError)
    assert issubclass(UnregisteredCloudError, RegistrationError)
    assert str(UnregisteredCloudError("plain text")) == "plain text"


def test_a_second_object_for_a_cloud_or_an_unknown_cloud_fails_at_registration() -> None:
    first = REGISTRY.profile("eks")
    registry = CloudRegistry(CLOUDS)
    registry.register(first)
    with pytest.raises(RegistrationError, match="cloud 'eks' is registered twice"):
        registry.register(type(first)())
    with pytest.raises(RegistrationError, match="names cloud 'eks'; known: aks, gke"):
        CloudRegistry(("aks", "gke")).register(first)


def test_a_profile_whose_provisioner_names_another_cloud_fails_at_registration() -> None:
    eks, aks = REGISTRY.profile("eks"), REGISTRY.profile("aks")
    mixed = type("MixedProfile", (type(eks),), {"provisioners": {**eks.provisioners, **aks.provisioners}})()
    with pytest.raises(RegistrationError, match="is registered as 'node-pool' on 'eks'"):
        CloudRegistry(CLOUDS).register(mixed)


def test_a_process_that_never_imports_the_registration_module_gets_the_clear_error() -> None:
    code = (
        "from gpuready.core.clouds.registry import cloud_profile\n"
        "try:\n    cloud_profile('gke')\nexcept KeyError as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("cloud 'gke' has no registered profile: import gpuready.plugins first")
