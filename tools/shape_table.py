"""The shape tables generated from the pydantic config models: the core's (``components/gpuready/core/config_model/
shapes.json``, the cloud-neutral models) and each registered cloud's (its settings model's, in the file its light
settings class names: ``components/gpuready/<cloud>/settings_shape.json``). ``python -m tools.shape_table --write``
writes them all; ``--check`` fails when any committed one is stale.

Each model becomes ``(has a light class, model before-validators in the order they run, fields)``; a field is
``(name, alias, type tree)`` plus its default when it has one. Type trees: ``"str"``, ``"int"``, ``"bool"``,
``"any"``; ``("literal", values)``, ``("optional", T)``, ``("list", T)``, ``("dict", K, V)``, ``("union", (T...))`` of
scalars, ``("model", name)``, ``("choose", function, ((tag, T)...))`` (a callable discriminator),
``("tagged", key, ((tag, model)...))`` (a discriminated union), ``("checked", T, befores, afters)`` (validators).
Objects are named by the names they are registered under (``forms.named``; a light class by its shape), never by
module path. A cloud's table also holds its ``STACK_KEYS`` (the keys a stack on it must set, and the cluster
look-up's). Anything else in a model stops the generation: a table describes every model completely or not at all.
"""

from __future__ import annotations

import argparse
import json
import os
import types
from collections import deque
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import AfterValidator, BaseModel, BeforeValidator, Discriminator, Tag
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

import gpuready.plugins  # noqa: F401 - registers the clouds, whose settings models get tables of their own
from gpuready.core.clouds.registry import registered_settings_values
from gpuready.core.config_model.cloud_keys import StackKey
from gpuready.core.config_model.forms import LIGHT, NAMED, TABLES
from gpuready.core.config_model.gpu_stack_model import GpuStackConfig
from gpuready.core.config_model.kueue_model import KueueConfig
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig
from gpuready.core.config_model.settings_model import StackSettingsConfig, cloud_settings_models

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "components/gpuready/core/config_model/shapes.json"


class Unsupported(TypeError):
    """A model uses something the fast path does not interpret."""


def _name(item: object) -> str:
    """The name ``item`` is registered under for the tables (``forms.named``)."""
    found = next((name for name, registered in NAMED.items() if registered is item), None)
    if found is None:
        raise Unsupported(f"{item!r} is registered under no name (forms.named)")
    return found


def _ref(function: Any) -> str:
    plain = getattr(function, "__plain__", None)
    if plain is None:
        raise Unsupported(f"validator {function!r} has no plain function (wrap it with base.before / after)")
    return _name(plain)


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
            return ("choose", _name(discriminator.discriminator), tuple(chosen))
        if all(m in (str, int, bool) for m in members):
            return ("union", tuple(m.__name__ for m in members))
        raise Unsupported(f"union {members!r} without a discriminator")


def _shape(walker: _Walker, model: type[BaseModel], light: bool = True) -> tuple[Any, ...]:
    made = next((c for c in model.__mro__[1:] if not issubclass(c, BaseModel) and c is not object), None)
    if light and made is None:
        raise Unsupported(f"{model.__name__} subclasses no light class")
    config = model.model_config
    if (config.get("extra"), config.get("strict"), config.get("validate_by_name")) != ("forbid", True, False):
        raise Unsupported(f"{model.__name__}: not strict, or unknown keys allowed, or keys by name")
    if made is not None and LIGHT.get(model.__name__) is not made:
        raise Unsupported(f"{model.__name__}: its light class is not registered under its name (Values, shape=...)")
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
    return (made is not None, befores, tuple(fields))


def _shapes(walker: _Walker, roots: list[type[BaseModel]]) -> dict[str, Any]:
    for root in roots:
        walker.model(root)
    shapes = {}
    while walker.queue:
        model = walker.queue.popleft()
        shapes[model.__name__] = _shape(walker, model)
    return shapes


def tables() -> dict[Path, dict[str, Any]]:
    """Each shape table of the current models: the core's, then each registered cloud's."""
    walker = _Walker()
    roots: list[type[BaseModel]] = [
        PoolConfig,
        GpuStackConfig,
        KueueConfig,
        BinPackSchedulerConfig,
        StackSettingsConfig,
    ]
    found: dict[Path, dict[str, Any]] = {TABLE: {"SHAPES": _shapes(walker, roots)}}
    for model, values in zip(cloud_settings_models(), registered_settings_values(), strict=True):
        path = TABLES.get(model.__name__)
        if path is None or LIGHT.get(model.__name__) is not values:
            raise Unsupported(f"{values.__name__}: not registered under {model.__name__} with its table (table=...)")
        keys = {"required": model.required_keys(), "target": model.target_keys()}
        found[path] = {"SHAPES": _shapes(walker, [model]), "STACK_KEYS": {model.__name__: keys}}
    return found


def source(table: dict[str, Any]) -> str:
    """A table's text: a model per line."""
    lines = ['{"SHAPES": {']
    lines += [f"  {json.dumps(name)}: {json.dumps(shape)}," for name, shape in table["SHAPES"].items()]
    lines[-1] = lines[-1].rstrip(",")
    rest = [f"{json.dumps(name)}: {json.dumps(value)}" for name, value in table.items() if name != "SHAPES"]
    return "\n".join([*lines, ",\n".join(["}", *rest])]) + "}\n"


def sources() -> dict[Path, str]:
    """Every table's path -> its text as it should be."""
    return {path: source(table) for path, table in tables().items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write every shape table")
    parser.add_argument("--check", action="store_true", help="fail when a shape table is stale")
    args = parser.parse_args(argv)
    texts = sources()
    if args.write:
        for path, text in texts.items():
            path.write_text(text, encoding="utf-8")
        return 0
    if args.check:
        stale = [os.path.relpath(p, ROOT) for p, text in texts.items() if not p.is_file() or p.read_text() != text]
        print(f"stale (run with --write): {', '.join(stale)}" if stale else "the shape tables are current")  # noqa: T201
        return 1 if stale else 0
    print("\n".join(texts.values()))  # noqa: T201
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
