"""``Pulumi.yaml``'s config block and the one ``gpuready new`` writes are the settings models'
(``tools/project_config``): the files hold what the tool writes, every key of the joined model is declared with
its type, default and description, and a key added to a cloud's model reaches both (so adding one without
regenerating fails here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import Field, create_model

from gpuready.core.config_model import settings_model
from gpuready.core.config_model.cloud_settings import REQUIRED, CloudSettingsConfig
from gpuready.core.config_model.settings_model import pulumi_types, settings_keys, stack_config_model
from gpuready.new_project.declarations import config_block
from tools import project_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_files_hold_what_the_tool_writes() -> None:
    assert project_config.BLOCK.read_text(encoding="utf-8") == project_config.block_text()
    project = project_config.PROJECT.read_text(encoding="utf-8")
    assert project == project_config.project_text(project)
    assert project_config.FLAGS.read_text(encoding="utf-8") == project_config.flags_text()
    assert project_config.main(["--check"]) == 0


def test_the_block_reads_back_as_the_declarations() -> None:
    assert yaml.safe_load(project_config.block_text()) == project_config.declarations()
    assert yaml.safe_load(config_block())["config"] == project_config.declarations()


def test_every_key_of_every_model_is_declared_with_its_type_and_description() -> None:
    declared: dict[str, Any] = yaml.safe_load((ROOT / "Pulumi.yaml").read_text(encoding="utf-8"))["config"]
    assert tuple(declared) == settings_keys()
    assert {key: d["type"] for key, d in declared.items()} == pulumi_types()
    for name, field in stack_config_model().model_fields.items():
        key = field.alias or name
        assert declared[key]["description"] == " ".join((field.description or "").split()), key
        assert ("default" in declared[key]) is not field.is_required(), key


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("Pools whose verification is turned off.", ["  description: Pools whose verification is turned off."]),
        ("Target: eks or aks.", ['  description: "Target: eks or aks."']),
    ],
)
def test_short_descriptions_stay_on_one_line(text: str, lines: list[str]) -> None:
    assert project_config._description(text) == lines


def test_long_descriptions_fold_within_the_line_limit() -> None:
    text = " ".join(["word"] * 80) + ": with a colon"
    lines = project_config._description(text)
    assert lines[0] == "  description: >-"
    assert all(len(line) <= project_config.LINE for line in lines)
    assert yaml.safe_load("\n".join(lines)) == {"description": text}


def test_a_key_a_cloud_model_adds_reaches_the_block(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = create_model(
        "ExtraSettingsConfig",
        __base__=CloudSettingsConfig,
        extra_zone_ids=(list[str], Field(default=[], description="Extra: zones.")),
    )
    extra.model_fields["extra_zone_ids"].metadata.append(REQUIRED)
    monkeypatch.setattr(settings_model, "cloud_settings_models", lambda: (extra,))
    settings_model.stack_config_model.cache_clear()
    try:
        assert (
            'extraZoneIds:\n  type: array\n  items:\n    type: string\n  default: []\n  description: "Extra: zones."\n'
            in (project_config.block_text())
        )
    finally:
        settings_model.stack_config_model.cache_clear()
