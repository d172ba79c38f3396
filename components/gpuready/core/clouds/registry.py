"""The clouds gpuready knows: a registry of their profile objects, whose names are the clouds'. Pure.

The core, the GPU stack planner, verification, the policy pack and the stack program ask
``cloud_profile(name)`` for whatever differs by cloud; they never compare a cloud's name. A profile lives in its
cloud's own package (``components/gpuready/<cloud>/profile.py``, pure, ``PROFILE``) and is registered as an object
(kueue's ``RegisterIntegration`` is the model) by the one module above the core and the cloud packages,
``gpuready.plugins``, which every entry point imports. The core holds no module path, no cloud's name and imports no
cloud package (import-linter keeps it so), so no import cycle runs through it and the cloud packages.

Adding a cloud: one package with a ``profile.py`` defining ``PROFILE`` and its profile in ``gpuready.plugins``'
one list; the names (``cloud_names``) are the registered profiles', in registration order.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gpuready.errors import RegistrationError

if TYPE_CHECKING:
    from gpuready.core.clouds.profile import CloudProfile

Cloud = str
"""A cloud's registry name, as ``gpuready:cloud`` spells it: the ``name`` of a registered profile.

A plain ``str`` to type checkers, not a ``Literal``: the names are the registered profiles' (``gpuready.plugins``
is the one list), and a literal would be a second list to keep in step with it. A name is checked where it
enters, against the registry: the stack settings' joined model (whose ``cloud`` field is the ``Literal`` of the
registered names, built at run time: ``settings_model.stack_config_model``), ``pool_config``,
``cluster_kubeconfig``, the CLI's ``--cloud`` choices (``new_project.flags.CLOUDS``, generated and checked by a
test), and ``cloud_profile``, which names the known ones."""

_NAME = re.compile(r"[a-z][a-z0-9]*\Z")
"""A cloud's name: lowercase letters and digits (a word of identifiers and keys, as ``eksNodeRoleArn``)."""


class UnregisteredCloudError(RegistrationError, KeyError):
    """A cloud asked for before any profile was registered (an entry point that does not import
    ``gpuready.plugins``)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class CloudRegistry:
    """Cloud name -> its registered profile object, in registration order (the order clouds are listed to users)."""

    def __init__(self) -> None:
        self._profiles: dict[str, CloudProfile] = {}

    def register(self, profile: CloudProfile) -> None:
        """Register ``profile`` under its ``name``: once per cloud (the same object again is a no-op); a name that is
        not a lowercase word, or a second object for a cloud, fails (``RegistrationError``)."""
        name = profile.name
        if not _NAME.match(name):
            raise RegistrationError(f"cloud profile {profile!r} names cloud {name!r}: a name is lowercase letters "
                                    "and digits, starting with a letter")  # fmt: skip
        registered = self._profiles.get(name)
        if registered is not None and registered is not profile:
            raise RegistrationError(f"cloud {name!r} is registered twice: {registered!r} and {profile!r}")
        for key, provisioner in profile.provisioners.items():
            if (provisioner.cloud, provisioner.key) != (name, key):
                raise RegistrationError(f"{provisioner!r} is registered as {key!r} on {name!r}")
        self._profiles[name] = profile

    def names(self) -> tuple[str, ...]:
        """The registered clouds' names, in registration order; ``UnregisteredCloudError`` while there is none."""
        if not self._profiles:
            raise UnregisteredCloudError(
                "no cloud has a registered profile: import gpuready.plugins first (every entry point does; it "
                "registers each cloud's PROFILE)"
            )
        return tuple(self._profiles)

    def profile(self, name: str) -> CloudProfile:
        """The profile of cloud ``name``; ``KeyError`` naming the registered clouds for any other name,
        ``UnregisteredCloudError`` while no cloud is registered."""
        profile = self._profiles.get(name)
        if profile is not None:
            return profile
        raise KeyError(f"no cloud {name!r}; known: {', '.join(self.names())}")

    def profiles(self) -> tuple[CloudProfile, ...]:
        """Every registered cloud's profile, in registration order."""
        return tuple(self._profiles[name] for name in self.names())


REGISTRY = CloudRegistry()
"""The one registry of cloud profiles."""


def register_cloud(profile: CloudProfile) -> None:
    """Register a cloud's profile object (``gpuready.plugins`` calls it once per cloud)."""
    REGISTRY.register(profile)


def cloud_names() -> tuple[str, ...]:
    """The registered clouds' names, in registration order (the order clouds are listed to users)."""
    return REGISTRY.names()


def cloud_profile(name: str) -> CloudProfile:
    """The profile of cloud ``name``; ``KeyError`` naming the known clouds for any other name."""
    return REGISTRY.profile(name)


def cloud_profiles() -> tuple[CloudProfile, ...]:
    """Every cloud's profile, in registry order."""
    return REGISTRY.profiles()
