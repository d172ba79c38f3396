"""The registration entry of a plug-in's Pulumi component (kueue's ``RegisterIntegration`` is the model). Pure.

A provisioner (``Provisioner.component``) registers one ``ComponentEntry``: its component class, the module that
builds it from the component package's inputs, and its schema text; a GPU stack kind that installs a chart
(``GpuStackKind.component``) one ``ReleaseEntry``: its component class and its schema text; a stack-wide component
that one ``gpuready:*`` key configures (the bin-packing scheduler) one ``SettingEntry``, listed in
``gpuready.core.setting_components``: its component class, its config model and parser, the module that builds it
and its schema text. The facade (``gpuready.public_names``), the stack program's install and the component
package's input check, provider and schema (``gpuready.package``) iterate the entries instead of naming
components. An entry lacking a part fails when it is made, at import, naming the part (``RegistrationError``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field, fields
from typing import Any

from gpuready.errors import RegistrationError
from gpuready.record import record

Json = dict[str, Any]

STRING: Json = {"type": "string"}
STRINGS: Json = {"type": "array", "items": {"type": "string"}}
STRING_MAP: Json = {"type": "object", "additionalProperties": {"type": "string"}}
POOL_REF: Json = {"$ref": "#/types/gpuready:index:PoolSpec"}
"""The schema type of one pool entry (``gpuready.package.schema.POOL_TYPE``; a test keeps them equal)."""
KUBERNETES_PROVIDER = "Pass the cluster's Kubernetes provider in the resource options (providers)."
"""The end of the description of a component that makes Kubernetes objects."""


@record(frozen=True)
class Wire:
    """One input that is not a config-model key: the cluster wiring (may be another resource's output)."""

    name: str
    type: Json
    description: str
    required: bool = False


POOL = Wire("pool", POOL_REF, "The pool, as one entry of gpuready:nodePools.", True)
"""A node pool component's pool."""
ELASTIC_POOL = Wire(
    "pool",
    POOL_REF,
    "The pool, as one entry of gpuready:nodePools; provisioner may be left out (the component's).",
    True,
)
"""An elastic pool component's pool (its provisioner the component's unless the entry names one)."""
TAGS = Wire("tags", STRING_MAP, "Tags on the cloud resource.")


@record(frozen=True, kw_only=True)
class ComponentEntry:
    """One plug-in's component, as the facade, the component package and its schema see it."""

    name: str = ""
    """The component class (``<name>Args`` its arguments), the last part of its type token."""
    module: str = ""
    """The module defining the class and its Args (imported on first use: it loads the cloud's SDK)."""
    builder: str = ""
    """The module that builds the component (imported on first use): ``build_pool(spec, settings[, provider])``
    from the stack settings (the stack program's, ``gpuready.stack_adapters.build_pool``; the provider for an elastic
    pool) and ``package_pool(name, spec, wiring, opts...)`` from the component package's inputs."""
    description: str = ""
    """The schema's description of the component."""
    wiring: tuple[Wire, ...] = ()
    """The schema's inputs besides the config model's keys (the pool first)."""
    known_wiring: bool = False
    """Whether the wiring must be known values (the Args take plain values; a node pool's take outputs)."""

    def __post_init__(self) -> None:
        required = ("name", "module", "builder", "description", "wiring")
        missing = [f.name for f in fields(self) if f.name in required and not getattr(self, f.name)]
        if missing:
            raise RegistrationError(
                f"component entry {self.name or '(unnamed)'!r} lacks {', '.join(missing)}; every entry names its "
                f"component class, module, builder module, description and wiring"
            )
        if not any(wire.type == POOL_REF for wire in self.wiring):
            raise RegistrationError(f"component entry {self.name!r} lacks its pool input (a Wire of type POOL_REF)")

    @property
    def exports(self) -> dict[str, str]:
        """The facade's public names of the entry (the class and its Args) -> the module defining them."""
        return {self.name: self.module, f"{self.name}Args": self.module}


@record(frozen=True, kw_only=True)
class ReleaseEntry:
    """One GPU stack kind's chart component, as the facade, the stack program and the component package see it."""

    name: str = ""
    """The component class (``<name>Args`` its arguments), the last part of its type token."""
    module: str = ""
    """The module defining the class and its Args (imported on first use: it loads the Kubernetes SDK)."""
    description: str = ""
    """The schema's description of the component."""
    skip: frozenset[str] = field(default_factory=frozenset)
    """Keys of ``gpuready:gpuStack`` the component does not take (``kind`` is its own)."""

    def __post_init__(self) -> None:
        missing = [name for name in ("name", "module", "description") if not getattr(self, name)]
        if "kind" not in self.skip:
            missing.append("skip (with kind: the component's own)")
        if missing:
            raise RegistrationError(
                f"release entry {self.name or '(unnamed)'!r} lacks {', '.join(missing)}; every entry names its "
                "component class, module, description and the stack keys it does not take"
            )

    @property
    def exports(self) -> dict[str, str]:
        """The facade's public names of the entry (the class and its Args) -> the module defining them."""
        return {self.name: self.module, f"{self.name}Args": self.module}


@record(frozen=True, kw_only=True)
class SettingEntry:
    """One stack-wide component that one ``gpuready:*`` key configures, as the facade, the component package and its
    schema see it: its inputs are the key's config model and, as wiring, the pools and their cloud."""

    name: str = ""
    """The component class (``<name>Args`` its arguments), the last part of its type token."""
    module: str = ""
    """The module defining the class and its Args (imported on first use: it loads the Kubernetes SDK)."""
    builder: str = ""
    """The module that builds the component from its parsed spec (imported on first use): for the component
    package ``package_component(name, spec, opts) -> (component, outputs)``, for the stack program
    ``stack_component(name, spec, provider)`` and the stack's export of it, ``stack_exports(spec)``."""
    key: str = ""
    """Its ``gpuready:*`` key (the parser's path: a problem names the component's input below it; the stack
    program's export)."""
    setting: str = ""
    """The ``StackSettings`` attribute holding the key's parsed spec (None: the stack asks for no component)."""
    stack_name: str = ""
    """The component's resource name in the stack program."""
    model: Callable[[], type[Any]] | None = None
    """The key's config model (the schema's inputs), loaded when first asked for: a stack that does not set the key
    never builds it (issue #32, a small plan's start-up)."""
    parse: Callable[[object, Sequence[Any], str], Any] | None = None
    """The key's parser: ``(raw, pools, path) -> spec``, ``ConfigError`` with every problem (importing its config
    model on first call)."""
    description: str = ""
    """The schema's description of the component."""
    pools: str = ""
    """The schema's description of its pools input."""
    pools_required: bool = True
    """Whether it needs pools (else they are optional, and the cloud is required with them)."""
    outputs: Mapping[str, Json] = field(default_factory=dict)
    """The schema's outputs (name -> type and description), which ``package_component`` returns."""
    needed: Callable[[Any, Sequence[Any]], bool] | None = None
    """``(spec, pools) -> bool``: whether a stack with this parsed spec gets anything of the component (objects or
    warnings); when not, the stack program does not import its builder (issue #32). None: whenever the spec is set."""

    def __post_init__(self) -> None:
        required = ("name", "module", "builder", "key", "setting", "stack_name", "model", "parse", "description",
                    "pools", "outputs")  # fmt: skip
        missing = [name for name in required if not getattr(self, name)]
        if missing:
            raise RegistrationError(
                f"setting entry {self.name or '(unnamed)'!r} lacks {', '.join(missing)}; every entry names its "
                "component class, module, builder module, key, settings attribute, stack resource name, config model "
                "and parser, description, pools and outputs"
            )

    @property
    def exports(self) -> dict[str, str]:
        """The facade's public names of the entry (the class and its Args) -> the module defining them."""
        return {self.name: self.module, f"{self.name}Args": self.module}
