"""The shape table (``components/gpuready/core/config_model/shapes.json``) generated from the pydantic config models:
``python -m tools.shape_table --write`` (``--check`` fails when the committed table is stale).

Each model becomes ``(light class, model before-validators in the order they run, fields)``; a field is
``(name, alias, type tree)`` plus its default when it has one. Type trees: ``"str"``, ``"int"``, ``"bool"``,
``"any"``; ``("literal", values)``, ``("optional", T)``, ``("list", T)``, ``("dict", K, V)``, ``("union", (T...))`` of
scalars, ``("model", name)``, ``("choose", function, ((tag, T)...))`` (a callable discriminator),
``("tagged", key, ((tag, model)...))`` (a discriminated union), ``("checked", T, befores, afters)`` (validators,
each the ``module:name`` of a plain function). Anything else in a model stops the generation: the table describes
every model completely or not at all.
"""

from __future__ import annotations

import argparse
import json
import sys
import types
from collections import deque
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, BeforeValidator, Discriminator, Tag
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

import gpuready.plugins  # noqa: F401 - registers the clouds, whose settings models the stack keys include
from gpuready.core.config_model.cloud_keys import StackKey
from gpuready.core.config_model.gpu_stack_model import GpuStackConfig
from gpuready.core.config_model.kueue_model import KueueConfig
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig
from gpuready.core.config_model.settings_model import (
    StackSettingsConfig,
    cloud_settings_models,
    pulumi_types,
    stack_config_model,
)
from gpuready.core.config_model.stack_values import JOINED

TABLE = Path(__file__).resolve().parent.parent / "components/gpuready/core/config_model/shapes.json"


class Unsupported(TypeError):
    """A model uses something the fast path does not interpret."""


def _ref(function: Any) -> str:
    plain = getattr(function, "__plain__", None)
    if plain is None:
        raise Unsupported(f"validator {function!r} has no plain function (wrap it with base.before / after)")
    name = getattr(plain, "__qualname__", None)
    module = getattr(plain, "__module__", "")
    if name is not None and getattr(sys.modules.get(module), name, None) is plain:
        return f"{module}:{name}"
    for module_name, loaded in sorted(sys.modules.items()):  # an object (a Format): the module-level name holding it
        if module_name.startswith("gpuready."):
            found = next((n for n, v in vars(loaded).items() if v is plain and not n.startswith("__")), None)
            if found is not None:
                return f"{module_name}:{found}"
    raise Unsupported(f"plain validator {plain!r} is not a module-level name")


class _Walker:
    def __init__(self) -> None:
        self.queue: deque[type[BaseModel]] = deque()
        self.seen: set[str] = set()

    def model(self, model: type[BaseModel]) -> tuple[str, str]:
        if model.__name__ not in self.seen:
            self.seen.add(model.__name__)
            self.queue.append(model)
        return ("model", model.__name__)

    def node(self, annotation: Any, metadata: list[Any]) -> Any:
        befores: list[str] = []
        afters: list[str] = []
        discriminator: Any = None
        for item in metadata:
            if isinstance(item, BeforeValidator):
                befores.insert(0, _ref(item.func))  # the outermost runs first
            elif isinstance(item, AfterValidator):
                afters.append(_ref(item.func))
            elif isinstance(item, Discriminator):
                discriminator = item
            elif isinstance(item, FieldInfo):
                discriminator = item.discriminator or discriminator
                if item.metadata:
                    raise Unsupported(f"metadata {item.metadata!r}")
            elif not isinstance(item, (StackKey, Tag)):
                raise Unsupported(f"metadata {item!r}")
        inner = self.bare(annotation, discriminator)
        return ("checked", inner, tuple(befores), tuple(afters)) if befores or afters else inner

    def bare(self, annotation: Any, discriminator: Any) -> Any:
        origin = get_origin(annotation)
        if origin is Annotated:
            inner, *metadata = get_args(annotation)
            if discriminator is not None:
                metadata.append(Discriminator(discriminator) if isinstance(discriminator, str) else discriminator)
            return self.node(inner, metadata)
        if origin in (Union, types.UnionType):
            members = [m for m in get_args(annotation) if m is not type(None)]
            rest = members[0] if len(members) == 1 else Union[tuple(members)]  # noqa: UP007
            if len(members) < len(get_args(annotation)):
                return ("optional", self.bare(rest, discriminator))
            return self.union(members, discriminator)
        if discriminator is not None:
            raise Unsupported(f"discriminator on {annotation!r}")
        if origin is Literal:
            values = get_args(annotation)
            if not all(type(v) is str for v in values):
                raise Unsupported(f"{annotation!r}: a literal of other than strings")
            return ("literal", values)
        if origin is list:
            return ("list", self.node(get_args(annotation)[0], []))
        if origin is dict:
            key, value = get_args(annotation)
            return ("dict", self.node(key, []), self.node(value, []))
        if annotation in (str, int, bool):
            return annotation.__name__
        if annotation in (object, Any):
            return "any"
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self.model(annotation)
        raise Unsupported(f"type {annotation!r}")

    def union(self, members: list[Any], discriminator: Any) -> Any:
        if isinstance(discriminator, str):
            tags: list[tuple[str, str]] = []
            for member in members:
                field = member.model_fields[discriminator]
                tags.extend((tag, self.model(member)[1]) for tag in get_args(field.annotation))
            return ("tagged", discriminator, tuple(tags))
        if isinstance(discriminator, Discriminator):
            if not callable(discriminator.discriminator):
                raise Unsupported("a discriminator by key in Discriminator()")
            chosen = []
            for member in members:
                inner, *metadata = get_args(member)
                tag = next(m.tag for m in metadata if isinstance(m, Tag))
                chosen.append((tag, self.node(inner, [m for m in metadata if not isinstance(m, Tag)])))
            return ("choose", _plain_name(discriminator.discriminator), tuple(chosen))
        if all(m in (str, int, bool) for m in members):
            return ("union", tuple(m.__name__ for m in members))
        raise Unsupported(f"union {members!r} without a discriminator")


def _plain_name(function: Any) -> str:
    return f"{function.__module__}:{function.__qualname__}"


def _shape(walker: _Walker, model: type[BaseModel], light: bool = True) -> tuple[Any, ...]:
    made = next((c for c in model.__mro__[1:] if not issubclass(c, BaseModel) and c is not object), None)
    if light and made is None:
        raise Unsupported(f"{model.__name__} subclasses no light class")
    config = model.model_config
    if (config.get("extra"), config.get("strict"), config.get("validate_by_name")) != ("forbid", True, False):
        raise Unsupported(f"{model.__name__}: not strict, or unknown keys allowed, or keys by name")
    runs = list(model.__pydantic_decorators__.model_validators.values())
    if any(d.info.mode != "before" for d in runs):
        raise Unsupported(f"{model.__name__}: a model validator other than before")
    befores = tuple(_ref(d.func) for d in reversed(runs))
    by_field: dict[str, list[str]] = {}
    for decorator in model.__pydantic_decorators__.field_validators.values():
        if decorator.info.mode != "before":
            raise Unsupported(f"{model.__name__}: a field validator other than before")
        for name in decorator.info.fields:
            by_field.setdefault(name, []).insert(0, _ref(decorator.func))
    fields = []
    for name, info in model.model_fields.items():
        if info.default_factory is not None:
            raise Unsupported(f"{model.__name__}.{name}: a default factory")
        if info.validation_alias not in (None, info.alias):
            raise Unsupported(f"{model.__name__}.{name}: a validation alias of its own")
        node = walker.node(info.annotation, list(info.metadata))
        if name in by_field:
            node = ("checked", node, tuple(by_field[name]), ())
        alias = info.alias or name
        fields.append((name, alias, node) if info.default is PydanticUndefined else (name, alias, node, info.default))
    return (_plain_name(made) if made is not None else "", befores, tuple(fields))


def table() -> dict[str, Any]:
    """The shape table of the current models."""
    walker = _Walker()
    shapes: dict[str, Any] = {JOINED: _shape(walker, stack_config_model(), light=False)}
    roots: list[type[BaseModel]] = [
        PoolConfig, GpuStackConfig, KueueConfig, BinPackSchedulerConfig, StackSettingsConfig,
    ]  # fmt: skip
    for root in [*roots, *cloud_settings_models()]:
        walker.model(root)
    while walker.queue:
        model = walker.queue.popleft()
        shapes[model.__name__] = _shape(walker, model)
    keys = {
        model.__name__: {"required": model.required_keys(), "target": model.target_keys()}
        for model in cloud_settings_models()
    }
    return {"SHAPES": shapes, "STACK_KEYS": keys, "PULUMI_TYPES": pulumi_types()}


def source() -> str:
    """``shapes.json`` as it should be: a model per line."""
    found = table()
    shapes = found.pop("SHAPES")
    lines = ['{"SHAPES": {']
    lines += [f"  {json.dumps(name)}: {json.dumps(shape)}," for name, shape in shapes.items()]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("},")
    lines += [f"{json.dumps(name)}: {json.dumps(value)}," for name, value in found.items()]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write shapes.json")
    parser.add_argument("--check", action="store_true", help="fail when shapes.json is stale")
    args = parser.parse_args(argv)
    text = source()
    if args.write:
        TABLE.write_text(text)
        return 0
    if args.check:
        current = TABLE.read_text() == text
        print("shapes.json is current" if current else "shapes.json is stale: run with --write")  # noqa: T201
        return 0 if current else 1
    print(text)  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
