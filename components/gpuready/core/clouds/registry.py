"""The clouds gpuready knows: a registry of their profile objects, whose names are the clouds'. Pure.

The core, the GPU stack planner, verification, the policy pack and the stack program ask
``cloud_profile(name)`` for whatever differs by cloud; they never compare a cloud's name. A profile lives in its
cloud's own package (``components/gpuready/<cloud>/profile.py``, pure, ``PROFILE``) and is registered as an object
(kueue's ``RegisterIntegration`` is the model) by the one module above the core and the cloud packages,
``gpuready.plugins``, which every entry point imports. The core holds no module path, no cloud's name and imports no
cloud package (import-linter keeps it so), so no import cycle runs through it and the cloud packages.

A cloud is registered lazily (issue #32): ``gpuready.plugins`` hands over a ``CloudEntry``, what the registry
answers without the profile (the name, the type-token prefixes of the resources and invokes the cloud's profile
reads or answers for) and a loader, a function that imports the profile on first ask. So ``cloud_names()`` loads
no profile, ``cloud_profile(name)`` loads that cloud's only, ``profiles_for_type(token)`` the clouds owning a
type token, and ``cloud_profiles()`` every one. A loaded profile is checked against its entry (its name, its
provisioners', every type token it owns under one of the entry's prefixes): a table that drifted from its
profile fails when the profile loads (``RegistrationError``).

Adding a cloud: one package with a ``profile.py`` defining ``PROFILE`` and its entry in ``gpuready.plugins``' one
list; the names (``cloud_names``) are the registered entries', in registration order.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gpuready.core.clouds.cloud_entry import CloudEntry, owned_types
from gpuready.errors import RegistrationError

if TYPE_CHECKING:
    from gpuready.core.clouds.addon_resource import AddonResource
    from gpuready.core.clouds.profile import CloudProfile
    from gpuready.core.config_model.cloud_keys import CloudSettingsValues
    from gpuready.core.config_model.cloud_settings import CloudSettingsConfig

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
    """Cloud name -> its registered entry and, once asked for, its profile object, in registration order (the order
    clouds are listed to users)."""

    def __init__(self) -> None:
        self._entries: dict[str, CloudEntry] = {}
        self._profiles: dict[str, CloudProfile] = {}
        self._loading = threading.RLock()  # the offline engine registers resources from several threads

    def register(self, cloud: CloudEntry | CloudProfile) -> None:
        """Register a cloud: its entry (loaded on first ask), or a profile object (loaded already, owning exactly
        its own type tokens). Once per cloud (the same entry or object again is a no-op); a name that is not a
        lowercase word, or a second entry or object for a cloud, fails (``RegistrationError``)."""
        entry = cloud if isinstance(cloud, CloudEntry) else None
        name = cloud.name
        if not _NAME.match(name):
            raise RegistrationError(f"cloud profile {cloud!r} names cloud {name!r}: a name is lowercase letters "
                                    "and digits, starting with a letter")  # fmt: skip
        registered = self._entries.get(name)
        if registered is not None:
            if registered is cloud or self._profiles.get(name) is cloud:
                return
            raise RegistrationError(f"cloud {name!r} is registered twice: {registered!r} and {cloud!r}")
        if entry is None:
            profile: CloudProfile = cloud  # type: ignore[assignment]  # not an entry: a profile object
            owned = tuple(sorted(owned_types(profile)))
            entry = CloudEntry(
                name, owned, lambda: profile, lambda: profile.settings, lambda: profile.settings_values,
                dict(profile.fabric.charts),
                profile.own_label_keys, profile.own_taint_keys,
            )  # fmt: skip
            self._checked(entry, profile)
            self._profiles[name] = profile
        self._entries[name] = entry

    def _checked(self, entry: CloudEntry, profile: CloudProfile) -> CloudProfile:
        name = entry.name
        if profile.name != name:
            raise RegistrationError(f"cloud {name!r} loaded {profile!r}, the profile of {profile.name!r}")
        for key, provisioner in profile.provisioners.items():
            if (provisioner.cloud, provisioner.key) != (name, key):
                raise RegistrationError(f"{provisioner!r} is registered as {key!r} on {name!r}")
        if dict(profile.fabric.charts) != dict(entry.charts):
            raise RegistrationError(f"cloud {name!r}'s entry pins charts {dict(entry.charts)}, its profile's "
                                    f"fabric {dict(profile.fabric.charts)}")  # fmt: skip
        if entry.values() is not profile.settings_values:
            raise RegistrationError(f"cloud {name!r}'s entry loads settings class {entry.values()!r}, its profile's "
                                    f"is {profile.settings_values!r}")  # fmt: skip
        own = (frozenset(profile.own_label_keys), frozenset(profile.own_taint_keys))
        if own != (entry.own_label_keys, entry.own_taint_keys):
            raise RegistrationError(f"cloud {name!r}'s entry reserves label and taint keys "
                                    f"{(entry.own_label_keys, entry.own_taint_keys)}, its profile {own}")  # fmt: skip
        stray = sorted(token for token in owned_types(profile) if not token.startswith(entry.types))
        if stray:
            raise RegistrationError(f"cloud {name!r}'s profile owns {', '.join(stray)}, under none of its "
                                    f"registered type prefixes {entry.types}: add them to its entry")  # fmt: skip
        answers = profile.offline_answers
        shared = sorted(t for t in {*answers.outputs, *answers.invokes} if len(self._owners(t)) > 1)
        if shared:
            raise RegistrationError(f"cloud {name!r} answers offline for {', '.join(shared)}, a type other clouds' "
                                    "prefixes start too: a cloud answers only for types it alone owns")  # fmt: skip
        return profile

    def _owners(self, token: str) -> list[CloudEntry]:
        return [entry for entry in self._entries.values() if token.startswith(entry.types)]

    def names(self) -> tuple[str, ...]:
        """The registered clouds' names, in registration order (no profile loaded); ``UnregisteredCloudError``
        while there is none."""
        if not self._entries:
            raise UnregisteredCloudError(
                "no cloud has a registered profile: import gpuready.plugins first (every entry point does; it "
                "registers each cloud's PROFILE)"
            )
        return tuple(self._entries)

    def profile(self, name: str) -> CloudProfile:
        """The profile of cloud ``name`` (loaded on first ask); ``KeyError`` naming the registered clouds for any
        other name, ``UnregisteredCloudError`` while no cloud is registered."""
        profile = self._profiles.get(name)
        if profile is not None:
            return profile
        entry = self._entries.get(name)
        if entry is None:
            raise KeyError(f"no cloud {name!r}; known: {', '.join(self.names())}")
        with self._loading:
            profile = self._profiles.get(name)
            if profile is None:
                profile = self._profiles[name] = self._checked(entry, entry.load())
        return profile

    def profiles(self) -> tuple[CloudProfile, ...]:
        """Every registered cloud's profile, in registration order (loading those not loaded yet)."""
        return tuple(self.profile(name) for name in self.names())

    def profiles_for_type(self, token: str) -> tuple[CloudProfile, ...]:
        """The profiles of the clouds that may own type token ``token`` (one of their entry's prefixes starts it),
        in registration order, loading those only."""
        return tuple(self.profile(entry.name) for entry in self._owners(token))

    def sole_owner(self, token: str) -> CloudProfile | None:
        """The profile of the one cloud whose prefixes start ``token`` (loading it), None when none or several do
        (a shared type: the Karpenter NodePool)."""
        owners = self._owners(token)
        return self.profile(owners[0].name) if len(owners) == 1 else None

    def settings(self, name: str) -> type[CloudSettingsConfig]:
        """Cloud ``name``'s settings model, from its entry (loading no profile; the same class as the profile's
        ``settings``, which imports it late too: pydantic is not loaded before a stack's config is read)."""
        entry = self._entries.get(name)
        if entry is None:
            raise KeyError(f"no cloud {name!r}; known: {', '.join(self.names())}")
        return entry.settings()

    def settings_values(self, name: str) -> type[CloudSettingsValues]:
        """Cloud ``name``'s light settings class, from its entry (loading no profile and no pydantic)."""
        entry = self._entries.get(name)
        if entry is None:
            raise KeyError(f"no cloud {name!r}; known: {', '.join(self.names())}")
        return entry.values()

    def charts(self) -> dict[str, str]:
        """Every registered cloud's fabric charts -> pinned version, in registration order (loading no profile)."""
        return {chart: version for entry in self._entries.values() for chart, version in entry.charts.items()}

    def own_keys(self) -> tuple[frozenset[str], frozenset[str]]:
        """The label keys and the taint keys some registered cloud's pools get from gpuready (loading no profile)."""
        entries = self._entries.values()
        return (
            frozenset(k for e in entries for k in e.own_label_keys),
            frozenset(k for e in entries for k in e.own_taint_keys),
        )

    def loaded_first(self) -> Iterator[CloudProfile]:
        """Every cloud's profile: those loaded already first, then the others, each loaded when reached."""
        loaded = self.loaded()
        yield from (self._profiles[name] for name in loaded)
        yield from (self.profile(name) for name in self.names() if name not in loaded)

    def loaded(self) -> tuple[str, ...]:
        """The clouds whose profile is loaded, in registration order."""
        return tuple(name for name in self._entries if name in self._profiles)


REGISTRY = CloudRegistry()
"""The one registry of cloud profiles."""


def register_cloud(cloud: CloudEntry | CloudProfile) -> None:
    """Register a cloud's entry (``gpuready.plugins`` calls it once per cloud) or a profile object."""
    REGISTRY.register(cloud)


def cloud_names() -> tuple[str, ...]:
    """The registered clouds' names, in registration order (the order clouds are listed to users); loads none."""
    return REGISTRY.names()


def cloud_profile(name: str) -> CloudProfile:
    """The profile of cloud ``name``; ``KeyError`` naming the known clouds for any other name."""
    return REGISTRY.profile(name)


def cloud_profiles() -> tuple[CloudProfile, ...]:
    """Every cloud's profile, in registry order (loads every cloud: ask ``profiles_for_type`` when a type token
    says which clouds a question concerns)."""
    return REGISTRY.profiles()


def registered_settings_models() -> tuple[type[CloudSettingsConfig], ...]:
    """Every registered cloud's settings model, in registry order, loading no profile."""
    return tuple(REGISTRY.settings(name) for name in REGISTRY.names())


def registered_settings_values() -> tuple[type[CloudSettingsValues], ...]:
    """Every registered cloud's light settings class, in registry order, loading no profile and no pydantic."""
    return tuple(REGISTRY.settings_values(name) for name in REGISTRY.names())


def registered_charts() -> dict[str, str]:
    """The Helm charts the clouds install for fabric pools -> the version gpuready pins, loading no profile."""
    return REGISTRY.charts()


def registered_own_keys() -> tuple[frozenset[str], frozenset[str]]:
    """The label keys and taint keys some cloud's pools get from gpuready, every registered cloud's (no profile
    loaded): a pool on any cloud may not declare them."""
    return REGISTRY.own_keys()


def profiles_loaded_first() -> Iterator[CloudProfile]:
    """Every cloud's profile, those loaded already first (the others load only if the iteration reaches them)."""
    return REGISTRY.loaded_first()


def sole_owner(token: str) -> CloudProfile | None:
    """The profile of the one cloud owning type ``token`` (the offline answers' look-up), None when the type is no
    cloud's or is shared."""
    return REGISTRY.sole_owner(token)


def profiles_for_type(token: str) -> tuple[CloudProfile, ...]:
    """The profiles of the clouds that may own resource or invoke type ``token``, loading those only."""
    return REGISTRY.profiles_for_type(token)


def addon_for_type(token: str) -> AddonResource | None:
    """The managed add-on resource (the health agent's) of type ``token``, None for any other type; only the
    clouds that may own the type load."""
    return next((a for p in profiles_for_type(token) if (a := p.addon_resource) and a.type == token), None)
