"""The ``gpuready:*`` keys of a Pulumi stack, validated without pydantic when they are valid. Pure.

Pulumi's project config schema types only strings, integers, booleans and arrays (pulumi/pulumi
``sdk/go/common/workspace/project.json``: ``simpleConfigType``), and the engine hands a program every
non-string value as text (``pulumi.Config.get``): booleans and integers arrive as ``"true"`` / ``"900"`` and
arrays JSON-encoded. The keys' validators here decode them, once, for every reader of stack config (the stack
program and ``gpuready verify``); ``settings_model`` declares the keys (pydantic, for the schema, the key reference
and the wording of bad values) and runs the same validators.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from gpuready.core.clouds.registry import cloud_names, registered_settings_values
from gpuready.core.config_model import fast
from gpuready.core.config_model.forms import ShapeError, Values, array_text, named
from gpuready.core.health.smoke_image import DEFAULT_SMOKE_IMAGE, is_image_reference
from gpuready.errors import RegistrationError, kind_of

NS = "gpuready"
SECRET_KEYS = frozenset({"kubeconfig"})
"""Keys whose values hold credentials: never echoed in an error, and refused as plain text when they hold content."""
KUBECONFIG_HINT = (
    f"pass the kubeconfig as a string and set it as a secret: "
    f"pulumi config set --secret {NS}:kubeconfig < kubeconfig.yaml (a string, not a YAML mapping; the command "
    "stores it encrypted as 'secure:')"
)
JOINED = "StackSettingsConfig+clouds"
"""The shape of the joined settings model (``settings_model.stack_config_model``), made at run time (``joined``)."""
CLOUD_KEYS_AFTER = "tags"
"""The core key every cloud's keys follow (in the joined model, so in problems, the key reference and
``Pulumi.yaml``): the wiring keys sit together after the stack-wide ones."""

PulumiType = Literal["string", "integer", "boolean", "array"]
"""The types Pulumi's project config schema has (pulumi/pulumi ``sdk/go/common/workspace/project.json``:
``simpleConfigType``, and ``array`` of ``string`` items)."""


@named
def flag(value: Any) -> Any:
    """A boolean key: a boolean, or the text the engine passes for one."""
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise ShapeError("must be true or false")


@named
def seconds(value: Any) -> Any:
    """A whole number of seconds, at least 1: a number, or the text the engine passes for one."""
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if number is None or number < 1:
        raise ShapeError("must be a whole number of seconds, at least 1", "e.g. 900")
    return number


@named
def secret_text(value: Any) -> Any:
    """A secret key's text; any other value refused without showing it (it holds credentials)."""
    if not isinstance(value, str):
        raise ShapeError(
            f"must be a string; got {kind_of(value)} (its content is not shown)", KUBECONFIG_HINT, hidden=True
        )
    return value


@named
def image(value: Any) -> Any:
    """An image key: "" (the default) or an image reference, checked as ``verify --smoke``'s flags are."""
    if not isinstance(value, str):
        return value  # the model's type check words it
    if value and not is_image_reference(value):
        raise ShapeError("is not an image reference", f"set a pinned image, e.g. {DEFAULT_SMOKE_IMAGE}")
    return value


class StackValues(Values, shape="StackSettingsConfig"):
    """The cloud-neutral ``gpuready:*`` keys, validated (``settings_model.StackSettingsConfig`` declares them)."""

    if TYPE_CHECKING:
        cloud: str
        cluster_name: str
        node_pools: object
        gpu_stack: object
        binpack_scheduler: object
        kueue: object
        conventions: object
        tags: list[str]
        verify: bool
        verify_timeout_seconds: int
        verify_smoke: bool
        verify_smoke_image: str
        verify_smoke_nccl_image: str
        verify_skip_pools: list[str]
        karpenter_feature_gates: list[str]
        kubeconfig: str
        kube_context: str


def joined() -> str:
    """The shape of every key a stack may set, made from the tables as ``settings_model.stack_config_model`` joins
    the models: ``StackSettingsConfig``'s keys, ``cloud`` one of the registered clouds, and each registered cloud's
    settings keys (its light class's shape, in registry order) after ``CLOUD_KEYS_AFTER``. Loads no profile."""
    return _joined(registered_settings_values(), cloud_names())


@cache
def _joined(clouds: tuple[type[Values], ...], names: tuple[str, ...]) -> str:
    _, befores, core = fast.entry("StackSettingsConfig")
    fields: list[Any] = []
    for field in core:
        fields.append(["cloud", "cloud", ["literal", list(names)]] if field[0] == "cloud" else field)
        if field[0] == CLOUD_KEYS_AFTER:
            fields += [f for cloud in clouds for f in fast.entry(fast.shape_of(cloud))[2]]
    if len({f[0] for f in fields}) < len(fields):
        raise RegistrationError("a cloud's settings declare a key another settings model declares too")
    return fast.add(f"{JOINED}:{'|'.join(names)}", [False, befores, fields])


def pulumi_types() -> dict[str, PulumiType]:
    """Every ``gpuready:*`` key and its Pulumi type (as ``settings_model.pulumi_types`` reads the model's
    annotations): a list is an ``array``, a bool a ``boolean``, an int an ``integer``, anything else a ``string``."""
    return dict(_types(joined()))


@cache
def _types(shape: str) -> tuple[tuple[str, PulumiType], ...]:
    return tuple((field[1], _pulumi_type(field[2])) for field in fast.entry(shape)[2])


def _pulumi_type(node: Any) -> PulumiType:
    while node[0] == "checked":
        node = node[1]
    if node[0] == "list":
        return "array"
    if node == "bool":
        return "boolean"
    return "integer" if node == "int" else "string"


def array_keys() -> tuple[str, ...]:
    """Keys of Pulumi type ``array``, which the engine passes JSON-encoded."""
    return tuple(key for key, kind in _types(joined()) if kind == "array")


def given(values: Mapping[str, object]) -> dict[str, object]:
    """``values`` as data: array keys decoded from the engine's JSON text (the one place that decodes them), keys
    left empty (``""``) dropped (Pulumi.yaml declares every key with an empty default)."""
    arrays = array_keys()
    return {k: array_text(v) if k in arrays else v for k, v in values.items() if v != ""}
