"""The config bag of one stack, as the engine builds it: stack file, overrides, project defaults, type checks.

Mirrors pulumi/pulumi ``sdk/go/common/workspace`` (project.go ``ValidateConfigValue``, config.go) and
``resource/config/value.go``: stack scalars are read as the text written, declared keys are type-checked and
defaulted, and non-string values reach the program JSON-encoded. ``secure:`` values cannot be decrypted offline
and become placeholders.

The automation API's ``StackSettings`` is not the reader here: its loader is private (``_deserialize``, reached
through ``LocalWorkspace``, which needs the Pulumi CLI) and lossy for a gpuready stack (pulumi 3.272.0
``automation/_stack_settings.py``: list and mapping values are dropped, booleans and integers raise ``TypeError``
on ``"secure" in val``, and ``yaml.safe_load`` reads YAML 1.1, so ``yes`` becomes ``True`` where the engine keeps
the text).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from gpuready.core.stack_settings import SECRET_KEYS
from gpuready.errors import kind_of, shown
from gpuready.offline.config_path import PATH_HINT, Segment, parse_path, path_value, set_path
from gpuready.offline.project import (
    RAW_YAML_LOADER,
    SECRET_PLACEHOLDER,
    ConfigDeclaration,
    OfflineProjectError,
    Project,
    full_type_name,
    namespaced_key,
    read_yaml,
    validate_config_value,
)
from gpuready.record import record


@record(frozen=True, slots=True)
class StackValue:
    """One stack config value as the engine holds it: scalars as their YAML text, objects parsed."""

    content: object
    secure: bool = False


@record(frozen=True, slots=True)
class StackConfig:
    """The engine's config bag for one stack, ready for ``pulumi.runtime.set_all_config``."""

    stack: str
    values: Mapping[str, str]
    secret_keys: tuple[str, ...] = ()


def load_stack_config(
    project: Project,
    stack: str,
    *,
    config_file: Path | None = None,
    overrides: Sequence[str] = (),
    path_overrides: Sequence[str] = (),
) -> StackConfig:
    """Read ``Pulumi.<stack>.yaml`` (or ``config_file``), apply ``key=value`` overrides (``--set``), then
    ``key.path[0]=value`` ones (``--set-path``), and validate."""
    path = config_file if config_file is not None else project.stack_file(stack)
    if config_file is not None and not path.is_file():
        raise OfflineProjectError(f"config file {path} not found", "pass the path of a Pulumi.<stack>.yaml-format file")
    text = path.read_text("utf-8-sig") if path.is_file() else ""  # as the engine: no file, no values
    entries = parse_stack_document(text, str(path))
    paths = [parse_override(text, PATH_HINT) for text in path_overrides]
    return resolve_stack_config(project, stack, entries, dict(map(parse_override, overrides)), paths)


def parse_stack_document(text: str, source: str) -> dict[str, StackValue]:
    """The ``config:`` mapping of a stack file. Scalars keep their YAML text, as the engine reads them."""
    typed = read_yaml(text, source)
    raw = read_yaml(text, source, RAW_YAML_LOADER, checked=True)  # the same text: its limits held for the first
    if typed is None:
        return {}
    typed_config = typed.get("config") if isinstance(typed, dict) else ()
    raw_config = raw.get("config") if isinstance(raw, dict) else ()
    if typed_config is None:
        return {}
    if not isinstance(typed_config, dict) or not isinstance(raw_config, dict):
        raise OfflineProjectError(f"{source}: expected 'config:' with a mapping of keys to values")
    entries: dict[str, StackValue] = {}
    # Both loaders keep document order; the raw one keeps keys and scalars as written.
    for value, (key, scalar) in zip(typed_config.values(), raw_config.items(), strict=True):
        if isinstance(value, dict | list):
            entries[key] = StackValue(*_mask_secure(value))
        else:
            entries[key] = StackValue("" if value is None else scalar)
    return entries


def parse_override(text: str, hint: str = "e.g. aws:region=us-east-1") -> tuple[str, str]:
    """Split a ``key=value`` override at the first ``=``; the value is decoded later (``override_value``)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise OfflineProjectError(f"config override {shown(text, 40)} is not key=value", hint, path=key.strip())
    return key.strip(), value


def override_value(text: str, declaration: ConfigDeclaration | None) -> StackValue:
    """A ``--set`` value: a JSON array or object is that structure (as in a stack file), except for keys the
    project declares as strings; anything else is text, as ``pulumi config set`` stores it."""
    if text.lstrip()[:1] in ("[", "{") and (declaration is None or declaration.type not in ("string", None)):
        try:
            decoded: object = json.loads(text)
        except ValueError:
            return StackValue(text)  # not JSON: the declared type check reports it, with the JSON hint
        if isinstance(decoded, list | dict):
            return StackValue(decoded)
    return StackValue(text)


def resolve_stack_config(
    project: Project,
    stack: str,
    entries: Mapping[str, StackValue],
    overrides: Mapping[str, str],
    path_overrides: Sequence[tuple[str, str]] = (),
) -> StackConfig:
    """Merge stack values, overrides (``--set``, then ``--set-path``) and project values/defaults, then validate
    as the engine does. Pure."""
    declared = {d.full_key: d for d in project.config}
    values = {namespaced_key(project.name, k): v for k, v in entries.items()}
    for key, text in overrides.items():
        if "[" in key:  # ``pulumi config set`` would store the path as a key of its own; it is never meant
            raise OfflineProjectError(
                f"config override key {shown(key)} is a path", f"--set-path '{key}={text}'", path=key
            )
        full_key = namespaced_key(project.name, key)
        values[full_key] = override_value(text, declared.get(full_key))
    for path, text in path_overrides:
        key, segments = parse_path(path)
        full_key = namespaced_key(project.name, key)
        values[full_key] = _set_path(values.get(full_key), segments, path_value(text), full_key)
    declarations = sorted(project.config, key=lambda d: d.key)
    missing: list[str] = []
    for decl in declarations:
        fallback = decl.default if decl.default is not None else decl.value
        if decl.full_key in values:
            continue
        if fallback is not None:
            values[decl.full_key] = _project_value(fallback)
        elif decl.full_key.partition(":")[0] == project.name:
            missing.append(decl.key)
    if missing:
        hint = f"set it in {project.stack_file(stack).name} or override it with key=value"
        raise OfflineProjectError(_missing_message(stack, missing), hint)
    for decl in declarations:
        _check_type(stack, decl, values[decl.full_key])
    return StackConfig(
        stack=stack,
        values={k: encode_config_value(v.content) for k, v in sorted(values.items())},
        secret_keys=tuple(sorted(k for k, v in values.items() if v.secure)),
    )


def encode_config_value(content: object) -> str:
    """A value of the engine's config bag: strings as they are, anything else as compact JSON."""
    if isinstance(content, str):
        return content
    return json.dumps(_go_numbers(content), separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def _check_type(stack: str, decl: ConfigDeclaration, value: StackValue) -> None:
    if decl.type is None:
        return
    if decl.secret and not value.secure:
        message = f"Stack '{stack}' with configuration key '{decl.key}' must be encrypted as it's secret"
        raise OfflineProjectError(message, f"pulumi config set --secret {decl.full_key} <value>")
    # The engine checks the decrypted value; offline there is nothing to check.
    if not value.secure and not validate_config_value(decl.type, decl.items, value.content):
        type_name = full_type_name(decl.type, decl.items)
        message = f"Stack '{stack}' with configuration key '{decl.key}' must be of type '{type_name}'"
        raise OfflineProjectError(message, _type_hint(decl, value.content))


def _set_path(current: StackValue | None, segments: Sequence[Segment], value: object, key: str) -> StackValue:
    content = None if current is None else current.content
    if current is not None and current.secure:
        raise OfflineProjectError(f"config path {key}: the value is a secret", "set it whole", path=key)
    if isinstance(content, str) and content.lstrip()[:1] in ("[", "{"):
        with contextlib.suppress(ValueError):  # text it is: set_path says it is not a list or mapping
            content = json.loads(content)  # a structure given as JSON text by an earlier --set
    return StackValue(set_path(content if content != "" else None, segments, value, key))


def _type_hint(decl: ConfigDeclaration, content: object) -> str:
    """What was given instead, never echoing a secret key's value (the engine's own message shows no value)."""
    kind = kind_of(content)
    if decl.secret or decl.key.rpartition(":")[2] in SECRET_KEYS:
        return (f"got {kind} (not shown: it is a secret). Pass it as a string and set it as a secret: "
                f"pulumi config set --secret {decl.full_key} < FILE")  # fmt: skip
    if decl.type == "array" and isinstance(content, str):
        return (f"got {shown(content)}; a list through --set is JSON: --set '{decl.full_key}=[\"a\",\"b\"]', "
                f"or one item: --set-path '{decl.full_key}[0]=a'")  # fmt: skip
    return f"got {shown(content)}"


def _missing_message(stack: str, keys: list[str]) -> str:
    quoted = [f"'{k}'" for k in sorted(keys)]
    if len(quoted) == 1:
        return f"Stack '{stack}' is missing configuration value {quoted[0]}"
    return f"Stack '{stack}' is missing configuration values {', '.join(quoted[:-1])} and {quoted[-1]}"


def _project_value(value: object) -> StackValue:
    """Go's ``createConfigValue``: strings, integers and booleans as text, anything else as an object."""
    if isinstance(value, bool):
        return StackValue(str(value).lower())
    return StackValue(str(value) if isinstance(value, str | int) else value)


def _mask_secure(value: object) -> tuple[object, bool]:
    """Replace each ``{secure: ...}`` with the placeholder and say whether there was one."""
    if isinstance(value, dict):
        if len(value) == 1 and isinstance(value.get("secure"), str):
            return SECRET_PLACEHOLDER, True
        pairs = {str(k): _mask_secure(v) for k, v in value.items()}
        return {k: v for k, (v, _) in pairs.items()}, any(s for _, s in pairs.values())
    if isinstance(value, list):
        masked = [_mask_secure(v) for v in value]
        return [v for v, _ in masked], any(s for _, s in masked)
    return value, False


def _go_numbers(value: object) -> object:
    """Go's JSON prints whole floats as integers (``2.0`` is ``2``); mirror it."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return int(value)
    if isinstance(value, dict):
        return {str(k): _go_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_go_numbers(v) for v in value]
    return value
