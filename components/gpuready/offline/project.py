"""Load a Pulumi project directory and its stack config without the Pulumi CLI.

Mirrors the engine (pulumi/pulumi ``sdk/go/common/workspace`` project.go, config.go and
``resource/config/value.go``): config declarations, defaults, type checks and the string config
bag a program receives. ``secure:`` values cannot be decrypted offline and become placeholders.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Literal, cast

import yaml

from gpuready.core.yaml_limits import YamlLimitError, load_yaml, yaml_problem
from gpuready.errors import GpuReadyError, shown
from gpuready.record import record

ConfigType = Literal["string", "integer", "boolean", "array"]
SECRET_PLACEHOLDER = "[secret]"
"""What a ``secure:`` value becomes offline: it cannot be decrypted without the stack's key."""

_TYPES = ("array", "boolean", "integer", "string")
_ATTRIBUTES = ("default", "description", "items", "secret", "type", "value")
_ATOI = re.compile(r"[+-]?[0-9]+")  # what Go's strconv.Atoi accepts (plus its int64 range, below)


class OfflineProjectError(GpuReadyError):
    """A project, stack file or config value that cannot be used for an offline plan."""

    def __init__(self, message: str, hint: str = "", *, path: str = "", value: object = None) -> None:
        self.message = message
        """What is wrong; for config problems, the engine's own wording."""
        self.hint = hint
        """How to fix it (may be empty)."""
        self.path = path
        """The config key or path at fault, when there is one (``gpuready:verifySkipPools[3]``)."""
        self.value = value
        """The bad value, when it can be shown."""
        super().__init__(f"{message}. Hint: {hint}" if hint else message)


_SafeBase: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~10x faster
RAW_YAML_LOADER: type[yaml.BaseLoader] = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


class _Yaml12Loader(_SafeBase):  # type: ignore[valid-type,misc]
    """SafeLoader typing scalars as YAML 1.2 (Go's yaml.v3) does: ``yes`` and dates stay strings."""


_Yaml12Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if not tag.endswith((":bool", ":timestamp"))]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Yaml12Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


@record(frozen=True, slots=True)
class ItemsType:
    """The element type of an ``array`` config declaration; arrays nest."""

    type: ConfigType
    items: ItemsType | None = None


@record(frozen=True, slots=True)
class ConfigDeclaration:
    """One entry of ``config:`` in Pulumi.yaml. ``None`` means absent, as in the engine."""

    key: str
    """The key as written in Pulumi.yaml; the engine's messages quote it this way."""
    full_key: str
    """The namespaced key, e.g. ``gpuready:clusterName`` or ``aws:region``."""
    type: ConfigType | None = None
    items: ItemsType | None = None
    description: str = ""
    default: object = None
    value: object = None
    """A project-wide value; the only form allowed for keys of other namespaces (``aws:region``)."""
    secret: bool = False


@record(frozen=True, slots=True)
class Project:
    """A loaded Pulumi project."""

    name: str
    runtime: str
    project_file: Path
    program_dir: Path
    stack_config_dir: Path
    config: tuple[ConfigDeclaration, ...] = ()

    def stack_file(self, stack: str) -> Path:
        """``<stackConfigDir>/Pulumi.<stack>.yaml`` (``.yml`` when the project file uses it)."""
        return self.stack_config_dir / f"Pulumi.{stack}{self.project_file.suffix}"


def load_project(project_dir: Path) -> Project:
    """Read ``Pulumi.yaml`` (or ``Pulumi.yml``) from ``project_dir``."""
    found = [p for p in (project_dir / "Pulumi.yaml", project_dir / "Pulumi.yml") if p.is_file()]
    if not found:
        raise OfflineProjectError(f"no Pulumi.yaml in {project_dir}", "pass the Pulumi project's directory")
    project = parse_project(read_yaml(found[0].read_text("utf-8-sig"), str(found[0])), found[0])
    if not project.program_dir.is_dir():
        raise OfflineProjectError(f"{found[0]}: program directory {project.program_dir} not found")
    return project


def parse_project(document: object, project_file: Path) -> Project:
    """Build a Project from a parsed Pulumi.yaml through the automation API's ``ProjectSettings``. Pure: paths are
    joined, never read.

    ``ProjectSettings.from_dict`` is the SDK's public reading of a project document (name, runtime, main, config);
    its loaders are not used: ``LocalWorkspace`` needs the Pulumi CLI, and reading with limits and YAML 1.2 scalars
    is ``read_yaml``'s. ``stackConfigDir`` is not part of ``ProjectSettings`` (pulumi 3.272.0) and is read here.
    """
    # The automation API imports the whole SDK (~0.7 s): only the commands that read a project pay for it.
    from pulumi.automation import ProjectRuntimeInfo, ProjectSettings  # noqa: PLC0415

    where = str(project_file)
    if not isinstance(document, dict):
        raise OfflineProjectError(f"{where}: expected a mapping")
    name = document.get("name")
    if not isinstance(name, str) or not name:
        raise OfflineProjectError(f"{where}: project is missing a non-empty string 'name' attribute")
    if isinstance(document.get("runtime"), dict) and "name" not in document["runtime"]:
        raise OfflineProjectError(f"{where}: runtime needs a 'name'", "runtime: {name: python}")
    settings = ProjectSettings.from_dict(document)
    runtime = settings.runtime.name if isinstance(settings.runtime, ProjectRuntimeInfo) else settings.runtime
    if runtime != "python":
        raise OfflineProjectError(
            f"{where}: runtime {shown(runtime)} is not supported; the offline plan runs Python programs only",
            "use `pulumi preview` for other runtimes",
        )
    config: object = settings.config  # typed str (its old meaning, a directory), usually the declarations
    config_dir = document.get("stackConfigDir")
    if isinstance(config, str):  # the deprecated spelling of stackConfigDir
        if config_dir is not None:
            raise OfflineProjectError(
                f"{where}: Should not use both config and stackConfigDir to define the stack directory. "
                "Use only stackConfigDir instead"
            )
        config, config_dir = None, config
    for label, path in (("main", settings.main), ("stackConfigDir", config_dir)):
        if path is not None and not isinstance(path, str):
            raise OfflineProjectError(f"{where}: '{label}' must be a path string; got {shown(path)}")
    return Project(
        name=name,
        runtime=runtime,
        project_file=project_file,
        program_dir=project_file.parent / (settings.main or "."),
        stack_config_dir=project_file.parent / (config_dir or "."),
        config=_declarations(name, config, where),
    )


def _declarations(project_name: str, config: object, where: str) -> tuple[ConfigDeclaration, ...]:
    if config is None:
        return ()
    if not isinstance(config, dict):
        raise OfflineProjectError(f"{where}: 'config' must be a mapping of keys to declarations")
    return tuple(_declaration(project_name, str(k), v, where) for k, v in sorted(config.items()))


def _declaration(project_name: str, key: str, spec: object, where: str) -> ConfigDeclaration:
    ours = ":" not in key or key.startswith(f"{project_name}:")
    where = f"{where}: config key '{key}'"
    if isinstance(spec, str | int | list):  # shorthand: a default for ours, a value for others
        spec = {"default" if ours else "value": spec}
    if not isinstance(spec, dict):
        raise OfflineProjectError(f"{where} must be a string, integer, boolean, array or declaration")
    unknown = sorted(set(map(str, spec)) - set(_ATTRIBUTES))
    if unknown:
        raise OfflineProjectError(f"{where}: '{unknown[0]}' not allowed; allowed: {', '.join(_ATTRIBUTES)}")
    type_name = _type_name(spec["type"], where) if "type" in spec else None
    items = _items(spec["items"], where) if spec.get("items") is not None else None
    default, value = spec.get("default"), spec.get("value")
    bad_default = ours and type_name is not None and default is not None
    bad_default = bad_default and not validate_config_value(type_name or "", items, default)
    problems = [  # Go's Project.Validate, in its order and wording
        (default is not None and value is not None, "cannot have both a 'default' and 'value' attribute"),
        (
            ours and type_name == "array" and items is None,
            "declares an array but does not specify the underlying type via the 'items' attribute",
        ),
        (
            bad_default,
            f"has a default value that is not of the expected type '{full_type_name(type_name or '', items)}'",
        ),
        (not ours and type_name is not None, "is not namespaced by the project and should not define a type"),
        (
            not ours and default is not None,
            "is not namespaced by the project and should not define a default value. "
            "Did you mean to use the 'value' attribute instead of 'default'?",
        ),
        (not ours and value is None, "is namespaced and must provide an attribute 'value'"),
    ]
    problem = next((p for failed, p in problems if failed), "")
    if problem:
        raise OfflineProjectError(f"{where} {problem}")
    description = spec.get("description")
    return ConfigDeclaration(
        key=key,
        full_key=namespaced_key(project_name, key),
        type=type_name,
        items=items,
        description=description if isinstance(description, str) else "",
        default=default,
        value=value,
        secret=spec.get("secret") is True,
    )


def _items(spec: object, where: str) -> ItemsType:
    if not isinstance(spec, dict) or "type" not in spec:
        raise OfflineProjectError(f"{where}: 'items' must be a mapping with a 'type'")
    type_name, nested = _type_name(spec["type"], where), spec.get("items")
    if type_name == "array" and nested is None:
        raise OfflineProjectError(f"{where}: an array in 'items' needs its own 'items'")
    return ItemsType(type_name, _items(nested, where) if nested is not None else None)


def _type_name(value: object, where: str) -> ConfigType:
    if value not in _TYPES:
        raise OfflineProjectError(f"{where}: unknown type {shown(value)}; allowed: {', '.join(_TYPES)}")
    return cast(ConfigType, value)


def read_yaml(text: str, source: str, loader: type[yaml.BaseLoader] | None = None, *, checked: bool = False) -> object:
    """The document, loaded with limits (``core.yaml_limits``; ``checked``: read once already, its limits with it);
    errors name a line, never quote it."""
    try:
        return load_yaml(text, loader or _Yaml12Loader, checked=checked)  # both loaders build plain data only
    except YamlLimitError as e:
        raise OfflineProjectError(f"{source}: refused: {e}") from None
    except yaml.YAMLError as e:
        raise OfflineProjectError(f"{source}: invalid YAML at {yaml_problem(e)}") from None


def validate_config_value(type_name: str, items: ItemsType | None, value: object) -> bool:
    """Go's ``ValidateConfigValue`` (project.go) on YAML/JSON-decoded values."""
    if type_name == "string":
        return isinstance(value, str)
    if type_name == "integer":
        if isinstance(value, float):
            return math.isinf(value) or value.is_integer()  # Go: f == math.Trunc(f)
        if isinstance(value, str):
            return _ATOI.fullmatch(value) is not None and -(2**63) <= int(value) < 2**63
        return isinstance(value, int) and not isinstance(value, bool)
    if type_name == "boolean":
        return isinstance(value, bool) or value in ("true", "false")
    if not isinstance(value, list) or items is None:
        return False
    return all(validate_config_value(items.type, items.items, item) for item in value)


def full_type_name(type_name: str, items: ItemsType | None) -> str:
    """Go's ``InferFullTypeName``: ``array<array<string>>`` for nested arrays."""
    return f"array<{full_type_name(items.type, items.items)}>" if items is not None else type_name


def namespaced_key(project_name: str, key: str) -> str:
    """``key`` under the project's namespace unless it has one; ``aws:config:region`` is ``aws:region``."""
    parts = key.split(":")
    if len(parts) == 1:
        parts = [project_name, key]
    elif len(parts) == 3 and parts[1] == "config":
        parts = [parts[0], parts[2]]
    if len(parts) != 2 or not all(parts):
        raise OfflineProjectError(f"could not parse {shown(key)} as a configuration key", "use <namespace>:<name>")
    return ":".join(parts)
