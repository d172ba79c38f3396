"""The pool and stack key reference is the config models': ``docs/pool-keys.md`` and ``docs/stack-keys.md`` hold
the block ``tools/key_docs.py`` renders, every key of every model is in it, and a key added to a model changes it
(so adding one without regenerating fails here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import create_model

from gpuready.core.config_model.gpu_stack_model import GPU_STACK_KEYS
from gpuready.core.config_model.pool_model import POOL_KEYS, PoolConfig
from gpuready.core.config_model.scheduler_model import BINPACK_KEYS
from gpuready.core.config_model.settings_model import settings_keys
from tools import key_docs

DESCRIPTIONS = key_docs.project_descriptions()
POOLS, STACK = key_docs.REFERENCES


@pytest.mark.parametrize("reference", key_docs.REFERENCES, ids=lambda r: r.path.name)
def test_the_docs_hold_the_block_the_models_render(reference: key_docs.Reference) -> None:
    text = reference.path.read_text(encoding="utf-8")
    block = key_docs.render(reference, DESCRIPTIONS)
    assert block in text, "run: .venv/bin/python -m tools.key_docs --write"


def test_check_passes_on_the_repository() -> None:
    assert key_docs.main(["--check"]) == 0


@pytest.mark.parametrize(
    ("reference", "keys", "prefix"),
    [
        (POOLS, POOL_KEYS, ""),
        (STACK, settings_keys(), "gpuready:"),
        (STACK, GPU_STACK_KEYS, ""),
        (STACK, BINPACK_KEYS, ""),
    ],
    ids=["pool", "stack", "gpuStack", "binpackScheduler"],
)
def test_every_key_of_every_model_has_a_row(reference: key_docs.Reference, keys: tuple[str, ...], prefix: str) -> None:
    block = key_docs.render(reference, DESCRIPTIONS)
    rows = {
        line.split(" | ", 1)[0].removeprefix("| ").strip("`") for line in block.splitlines() if line.startswith("| `")
    }
    assert {f"{prefix}{key}" for key in keys} <= rows


def test_a_key_added_to_a_model_makes_the_doc_stale(tmp_path: Path) -> None:
    grown = create_model("PoolConfig", __base__=PoolConfig, spotBudget=(int | None, None))
    section = key_docs.Section(grown, POOLS.sections[0].title)
    doc = tmp_path / "pool-keys.md"
    doc.write_text(POOLS.path.read_text(encoding="utf-8"), encoding="utf-8")
    block = key_docs.render(key_docs.Reference(doc, (section,)), DESCRIPTIONS)
    assert "| `spotBudget` | integer | no | - |" in block
    assert block not in doc.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("prop", "shown"),
    [
        ({"type": "string"}, "string"),
        ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "integer"),
        ({"type": "array", "items": {"$ref": "#/$defs/TaintConfig"}}, "list of [TaintConfig](#taintconfig)"),
        ({"type": "object", "additionalProperties": {"type": "string"}}, "mapping of string"),
        ({"enum": ["deploy", "existing"]}, "`deploy` \\| `existing`"),
        ({}, "any (YAML text or data)"),
    ],
)
def test_types_are_shown_as_a_reader_writes_them(prop: dict[str, object], shown: str) -> None:
    assert key_docs._type(prop) == shown


def test_a_file_without_the_block_is_refused_with_the_lines_to_add() -> None:
    with pytest.raises(ValueError, match="key-reference:start"):
        key_docs.replace_block("# no block here\n", "x")
