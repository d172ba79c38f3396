"""Field docstrings as the config models' field descriptions, for the package schema only.

Reading a model's source for its field docstrings (pydantic's ``use_attribute_docstrings``) costs every process
that merely imports the models, the plan included: ``inspect`` maps every loaded module to its file once, then
tokenizes each class. The schema is the only reader of the descriptions, so they are read here, once, when it is
generated: each field's docstring (the string literal right after its annotated assignment, cleaned as
``inspect.cleandoc`` cleans it, as pydantic does) becomes its description when it has none, and the models are
rebuilt from their fields, dependencies first, so their JSON schemas are what pydantic's option produces.
"""

from __future__ import annotations

import ast
import inspect
import typing
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from gpuready.core.config_model.base import ConfigModel


def documented(*models: type[ConfigModel]) -> None:
    """Give ``models`` and every config model their fields reach their field docstrings as descriptions (once)."""
    for model in _dependencies_first(models):
        _document(model)


@cache
def _document(model: type[ConfigModel]) -> None:
    docs = field_docstrings(model)
    changed = False
    for name, info in model.model_fields.items():
        if info.description is None and name in docs:
            info.description = docs[name]
            changed = True
    if changed or any(_models_in(info.annotation) for info in model.model_fields.values()):
        model.model_rebuild(force=True)


def field_docstrings(model: type) -> dict[str, str]:
    """``{field name: docstring}`` of the fields ``model`` itself declares (not inherited ones)."""
    tree = ast.parse(Path(inspect.getfile(model)).read_text(encoding="utf-8"))
    node = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == model.__name__), None)
    docs: dict[str, str] = {}
    if node is None:
        return docs
    for statement, following in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def _dependencies_first(models: tuple[type[ConfigModel], ...]) -> list[type[ConfigModel]]:
    ordered: list[type[ConfigModel]] = []

    def visit(model: type[ConfigModel]) -> None:
        if model in ordered:
            return
        for info in model.model_fields.values():
            for inner in _models_in(info.annotation):
                visit(inner)
        ordered.append(model)

    for model in models:
        visit(model)
    return ordered


def _models_in(annotation: object) -> list[type[ConfigModel]]:
    return list(_walk(annotation))


def _walk(annotation: object) -> Iterator[type[ConfigModel]]:
    if isinstance(annotation, type) and issubclass(annotation, ConfigModel):
        yield annotation
        return
    for arg in typing.get_args(annotation):
        yield from _walk(arg)
