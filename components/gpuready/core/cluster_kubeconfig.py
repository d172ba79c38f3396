"""Kubeconfig text for the cluster a stack names, built from what its cloud's API returns. Pure.

Each builder returns one kubeconfig v1 document (``apiVersion: v1``, ``kind: Config``) with exactly one cluster,
one user and one context, all named after the cluster, and that context current; the user presents a bearer token
(``bearer_token_kubeconfig``) or runs an exec credential plugin (``exec_kubeconfig``), or the cloud returns the
whole kubeconfig (``decoded_kubeconfig``). Which one a cloud uses, and its plugin's facts, are the cloud's own
(``components/gpuready/<cloud>/kubeconfig.py``, called by its stack adapter); ``ClusterTarget`` carries the cloud's
own settings, which its look-up reads.

Error messages never quote a credential: they say what is wrong and how long the value was.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

import yaml

from gpuready.core import yaml_text
from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile
from gpuready.core.config_model import fast
from gpuready.core.config_model.cloud_keys import CloudSettingsValues, missing_key
from gpuready.errors import ConfigError, GpuReadyError, Problem
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.stack_wiring import StackWiring

NS = "gpuready"
EXEC_API_VERSION = "client.authentication.k8s.io/v1beta1"
OVERRIDE_HINT = f"or set {NS}:kubeconfig (content or path) to a kubeconfig that reaches the cluster"


class ClusterCredentialsError(GpuReadyError):
    """A cloud returned cluster credentials that cannot be turned into a usable kubeconfig.

    Not a ``ValueError``: raised inside an ``apply``, the Pulumi SDK would re-raise a ``ValueError`` as a bare
    ``ValueError`` wrapped in resource-processing text, and the class would be lost.
    """


@record(frozen=True, slots=True)
class ClusterTarget:
    """The existing cluster a stack deploys into, and where its cloud finds it."""

    cloud: Cloud
    cluster_name: str
    cloud_settings: CloudSettingsValues | None = None
    """The cloud's own settings (its profile's ``settings`` model, as ``StackSettings.cloud_settings`` carries
    them): its look-up reads the keys the model marks ``target`` (the resource group, the location); None: none
    given, so a cloud whose look-up needs a key reports it missing."""
    profile: StackWiring = field(init=False, repr=False, compare=False)
    """The cloud's profile (its settings model and stack adapter), resolved once from the name the target was given
    (a stack's ``gpuready:cloud`` or a command's ``--cloud``)."""

    @classmethod
    def from_keys(cls, cloud: Cloud, cluster_name: str, **keys: object) -> ClusterTarget:
        """A target from the cloud's own stack keys as a stack file spells them (``<cloud><Key>="..."``),
        checked by the cloud's settings model: ``ConfigError`` naming each bad or missing key."""
        if cloud not in cloud_names():
            return cls(cloud, cluster_name)  # refused, naming the clouds
        profile = cloud_profile(cloud)
        found = fast.light(fast.shape_of(profile.settings_values), keys)
        if found is None:
            from gpuready.core.config_model.problems import validate  # noqa: PLC0415 - pydantic words refused keys

            found = validate(profile.settings, keys, f"{NS}:")
        return cls(cloud, cluster_name, found)

    def __post_init__(self) -> None:
        problems: list[Problem] = []
        if self.cloud not in cloud_names():
            problems.append(Problem(f"{NS}:cloud", "unknown cloud", self.cloud, cloud_names()))
        if not self.cluster_name:
            problems.append(Problem(f"{NS}:clusterName", "is required", hint=f"pulumi config set {NS}:clusterName ..."))
        if self.cloud in cloud_names():
            object.__setattr__(self, "profile", cloud_profile(self.cloud))
            model = self.profile.settings_values
            given = self.cloud_settings
            if given is not None and not isinstance(given, model):
                raise TypeError(f"a {self.cloud} cluster target takes {model.__name__}, not {type(given).__name__}")
            keys = model.target_keys()
            problems += (
                given.missing(keys, self.cloud) if given is not None else [missing_key(k, self.cloud) for k in keys]
            )
        if problems:
            raise ConfigError(problems)


def bearer_token_kubeconfig(name: str, endpoint: str, ca_data_b64: str, token: str, *, user: str = "") -> str:
    """A kubeconfig whose user presents a static bearer token; the user is named ``user`` or ``name``."""
    if not token:
        raise ClusterCredentialsError(f"cluster {name!r}: the bearer token is empty; {OVERRIDE_HINT}")
    return _kubeconfig(name, endpoint, ca_data_b64, user or name, {"token": token})


def exec_kubeconfig(name: str, endpoint: str, ca_data_b64: str, plugin: Mapping[str, Any]) -> str:
    """A kubeconfig whose user runs the exec credential plugin ``plugin`` (its ``command``, ``installHint``...)
    for a token on each use, with the ``apiVersion`` gpuready writes (``EXEC_API_VERSION``)."""
    return _kubeconfig(name, endpoint, ca_data_b64, name, {"exec": {"apiVersion": EXEC_API_VERSION, **plugin}})


def decoded_kubeconfig(b64_value: str, where: str) -> str:
    """The kubeconfig text a cloud returns base64-encoded (``where``: the field of its answer), checked.

    Raises ``ClusterCredentialsError`` when the value is not base64 of UTF-8 text, or the text is not a
    kubeconfig with at least one cluster, user and context.
    """
    try:
        text = base64.b64decode(b64_value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, ValueError) as error:
        raise ClusterCredentialsError(
            f"{where} is not base64-encoded UTF-8 text ({len(b64_value)} characters: {error}); {OVERRIDE_HINT}"
        ) from None
    try:
        document = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ClusterCredentialsError(f"{where} is not YAML ({type(error).__name__}); {OVERRIDE_HINT}") from None
    missing = _missing_sections(document)
    if missing:
        raise ClusterCredentialsError(
            f"{where} is not a kubeconfig: no {', '.join(missing)} ({len(text)} characters decoded); {OVERRIDE_HINT}"
        )
    return text


def https_server(endpoint: str) -> str:
    """The API server URL for an endpoint: some clouds return a bare address, others a full ``https://`` URL."""
    endpoint = endpoint.strip()
    if "://" in endpoint:
        return endpoint
    return f"https://{endpoint}"


def _kubeconfig(name: str, endpoint: str, ca_data_b64: str, user: str, credentials: Mapping[str, Any]) -> str:
    if not name:
        raise ClusterCredentialsError("the cluster name is empty")
    if not endpoint.strip():
        raise ClusterCredentialsError(f"cluster {name!r}: the API server endpoint is empty; {OVERRIDE_HINT}")
    _check_ca(name, ca_data_b64)
    document = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {"name": name, "cluster": {"server": https_server(endpoint), "certificate-authority-data": ca_data_b64}}
        ],
        "users": [{"name": user, "user": dict(credentials)}],
        "contexts": [{"name": name, "context": {"cluster": name, "user": user}}],
        "current-context": name,
        "preferences": {},
    }
    return yaml_text.dump(document)


def _check_ca(name: str, ca_data_b64: str) -> None:
    if not ca_data_b64:
        raise ClusterCredentialsError(f"cluster {name!r}: the certificate authority data is empty; {OVERRIDE_HINT}")
    try:
        base64.b64decode(ca_data_b64, validate=True)
    except binascii.Error:
        raise ClusterCredentialsError(
            f"cluster {name!r}: the certificate authority data is not base64 ({len(ca_data_b64)} characters)"
        ) from None


def _missing_sections(document: object) -> list[str]:
    if not isinstance(document, dict):
        return ["clusters", "users", "contexts"]
    return [key for key in ("clusters", "users", "contexts") if not _named_entries(document.get(key))]


def _named_entries(section: object) -> bool:
    return isinstance(section, list) and bool(section) and all(isinstance(e, dict) and e.get("name") for e in section)


def first_entry(items: object, field: str) -> Any:
    """The first entry of a list in a cloud's answer (an SDK invoke result); a clear error when it is empty."""
    if not isinstance(items, (list, tuple)) or not items:
        raise ClusterCredentialsError(f"the cloud's answer has no {field}; set gpuready:kubeconfig to a kubeconfig")
    return items[0]
