"""``yaml_text.dump`` writes what ``yaml.safe_dump`` writes, and ``load`` reads back what ``yaml.safe_load`` reads."""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml

from gpuready.core import yaml_text

WORDS = [
    "",
    " ",
    "a",
    "gpu",
    "nvidia.com/gpu",
    "kube-scheduler",
    "registry.k8s.io/kube-scheduler:v1.31.0",
    "https://x:443",
    "true",
    "True",
    "yes",
    "no",
    "off",
    "null",
    "~",
    "123",
    "-1",
    "0x1F",
    "0o17",
    "1_000",
    "1:20",
    "1.5",
    "1e3",
    ".inf",
    "2001-12-14",
    "<<",
    "=",
    "-",
    "- a",
    "---x",
    "...",
    "a: b",
    "a:",
    "a #b",
    "a#b",
    "#a",
    "a b",
    "a  b",
    " a",
    "a ",
    "it's",
    'say "x"',
    "é",
    "a\nb",
    "a\tb",
    "?x",
    ":x",
    "x:y",
    "[a]",
    "{a}",
    "a,b",
    "&a",
    "*a",
    "!a",
    "%a",
    "@a",
    "`a",
    "a\\b",
    "(x)",
    "$HOME",
    "x=1;y=2",
    "word " * 20,
    ("a long sentence " * 9).strip(),
    "two  spaces " * 12 + "end",
    "x" * 70 + " y z",
    "k" * 120,
    "f" * 90,
]
"""Strings ``dump`` writes itself and strings it leaves to PyYAML, hazards of each kind among them."""


def _document(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth < 4 and roll < 0.35:
        return {
            rng.choice([*WORDS, "name", "cluster", "server"]): _document(rng, depth + 1)
            for _ in range(rng.randint(0, 4))
        }
    if depth < 4 and roll < 0.55:
        return [_document(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return rng.choice([*WORDS, *WORDS, None, True, False, 0, 7, -3, 10**20, 1.5, (1, 2)])


def _safe_dump(document: Any) -> str:
    return yaml.safe_dump(document, sort_keys=False, default_flow_style=False)


def test_generated_documents_are_written_as_pyyaml_writes_them() -> None:
    rng = random.Random(32)
    written_by_us = 0
    for _ in range(3000):
        document = {"root": _document(rng)} if rng.random() < 0.7 else _document(rng)
        try:
            expected = _safe_dump(document)
        except yaml.YAMLError:
            with pytest.raises(yaml.YAMLError):
                yaml_text.dump(document)
            continue
        assert yaml_text.dump(document, remember=True) == expected, document
        written_by_us += expected in yaml_text._WRITTEN
    assert written_by_us > 500  # the direct path is exercised, not only PyYAML's


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"a": {}},
        {"a": []},
        {"a": [[]]},
        [{}],
        [[1, [2, 3]], {"x": {"y": [None]}}],
        {"clusters": [{"name": "c", "cluster": {"server": "https://1.2.3.4", "certificate-authority-data": "QUJD"}}]},
        {"profiles": [{"schedulerName": "gpu-binpack", "pluginConfig": [{"name": "NodeResourcesFit", "args": {}}]}]},
        {"version": "v1", "sharing": {"timeSlicing": {"resources": [{"name": "nvidia.com/gpu", "replicas": 4}]}}},
        {"on": True, "count": 0, "ratio": "1:20", "empty": "", "tilde": "~"},
        {"hint": "Install the plugin for use with kubectl by following https://example.com/a/b/c " * 3 + "now"},
        [{"users": [{"exec": {"installHint": "a  b " * 30 + "c"}}]}],
    ],
)
def test_documents_gpuready_writes_are_written_directly_as_pyyaml_writes_them(document: Any) -> None:
    text = yaml_text.dump(document, remember=True)
    assert text == _safe_dump(document)
    assert text in yaml_text._WRITTEN


@pytest.mark.parametrize(
    "document",
    [{"ratio": 1.5}, {"t": (1, 2)}, {1: "a"}, {"a": "see #1 " * 20 + "end"}, {"é": 1}, {"k" * 120: 1}, "scalar", []],
)
def test_a_value_it_cannot_spell_for_certain_leaves_the_whole_document_to_pyyaml(document: Any) -> None:
    text = yaml_text.dump(document, remember=True)
    assert text == _safe_dump(document)
    assert text not in yaml_text._WRITTEN


def test_load_gives_back_a_copy_of_what_dump_wrote_and_parses_anything_else() -> None:
    document = {"apiVersion": "v1", "items": [{"name": "a", "replicas": 2, "on": True}]}
    assert yaml_text.dump({"unread": "x"}) not in yaml_text._WRITTEN  # only what is asked to be remembered
    text = yaml_text.dump(document, remember=True)
    first = yaml_text.load(text)
    assert first == document == yaml.safe_load(text)
    first["items"].append("changed")  # a reader's change reaches neither the writer's document nor the next reader
    assert yaml_text.load(text) == document
    assert yaml_text.load("a: [1, 2]\n") == {"a": [1, 2]}
    with pytest.raises(yaml.YAMLError):
        yaml_text.load("a: [1, 2\n")
