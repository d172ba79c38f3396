"""The clouds gpuready knows: their names, and a registry of their profile objects. Pure.

The core, the GPU stack planner, verification, the policy pack and the stack program ask
``cloud_profile(name)`` for whatever differs by cloud; they never compare a cloud's name. A profile lives in its
cloud's own package (``components/gpuready/<cloud>/profile.py``, pure, ``PROFILE``) and is registered as an object
(kueue's ``RegisterIntegration`` is the model) by the one module above the core and the cloud packages,
``gpuready.plugins``, which every entry point imports. The core holds no module path and imports no cloud package
(import-linter keeps it so), so no import cycle runs through it and the cloud packages.

Adding a cloud: one package with a ``profile.py`` defining ``PROFILE``, its name in ``Cloud`` and one
``register_cloud`` call in ``gpuready.plugins``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, get_args

from gpuready.errors import RegistrationError

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile

Cloud = Literal["eks", "aks", "gke"]
"""A cloud's registry name, as ``gpuready:cloud`` spells it, in the order clouds are listed to users."""

CLOUDS: tuple[Cloud, ...] = get_args(Cloud)


class UnregisteredCloudError(RegistrationError, KeyError):
    """A known cloud whose profile was asked for before any was registered (an entry point that does not import
    ``gpuready.plugins``)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class CloudRegistry:
    """Cloud name -> its registered profile object; the names are fixed (``Cloud``), the objects come at import."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self._names = names
        self._profiles: dict[str, CloudProfile] = {}

    def register(self, profile: CloudProfile) -> None:
        """Register ``profile`` under its ``name``: once per cloud (the same object again is a no-op); a profile of
        an unknown cloud, or a second object for a cloud, fails (``RegistrationError``)."""
        name = profile.name
        if name not in self._names:
            raise RegistrationError(f"cloud profile {profile!r} names cloud {name!r}; known: {', '.join(self._names)}")
        registered = self._profiles.get(name)
        if registered is not None and registered is not profile:
            raise RegistrationError(f"cloud {name!r} is registered twice: {registered!r} and {profile!r}")
        for key, provisioner in profile.provisioners.items():
            if (provisioner.cloud, provisioner.key) != (name, key):
                raise RegistrationError(f"{provisioner!r} is registered as {key!r} on {name!r}")
        self._profiles[name] = profile

    def profile(self, name: str) -> CloudProfile:
        """The profile of cloud ``name``; ``KeyError`` naming the known clouds for any other name,
        ``UnregisteredCloudError`` for a known cloud not registered yet."""
        profile = self._profiles.get(name)
        if profile is not None:
            return profile
        if name not in self._names:
            raise KeyError(f"no cloud {name!r}; known: {', '.join(self._names)}")
        raise UnregisteredCloudError(
            f"cloud {name!r} has no registered profile: import gpuready.plugins first (every entry point does; "
            "it registers each cloud's PROFILE)"
        )

    def profiles(self) -> tuple[CloudProfile, ...]:
        """Every cloud's profile, in name order (each must be registered)."""
        return tuple(self.profile(name) for name in self._names)


REGISTRY = CloudRegistry(CLOUDS)
"""The one registry of cloud profiles."""


def register_cloud(profile: CloudProfile) -> None:
    """Register a cloud's profile object (``gpuready.plugins`` calls it once per cloud)."""
    REGISTRY.register(profile)


def cloud_profile(name: str) -> CloudProfile:
    """The profile of cloud ``name``; ``KeyError`` naming the known clouds for any other name."""
    return REGISTRY.profile(name)


def cloud_profiles() -> tuple[CloudProfile, ...]:
    """Every cloud's profile, in registry order."""
    return REGISTRY.profiles()
