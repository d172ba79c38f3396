"""``python -m tools.shape_table``: the shape table describes every model completely or the generation stops, so the
fast path (``config_model.fast``) never checks a model by a table that leaves part of it out."""

from __future__ import annotations

import json
from typing import Annotated, Any

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model

from gpuready.core.config_model import fast
from gpuready.core.config_model.base import ConfigModel, before
from gpuready.core.config_model.forms import TABLES, Values
from gpuready.core.config_model.settings_model import pulumi_types, stack_config_model
from gpuready.core.config_model.stack_values import joined
from gpuready.core.config_model.stack_values import pulumi_types as table_pulumi_types
from tools.shape_table import ROOT, TABLE, Unsupported, _shape, _Walker, main, tables


class LightValues(Values, shape="Adhoc"):
    """A light class for the ad-hoc models."""


class Unregistered(Values):
    """A light class registered under no shape."""


class LightModel(LightValues, ConfigModel):
    """The ad-hoc models' base: a config model with its light class."""


def _model(**fields: Any) -> type[BaseModel]:
    return create_model("Adhoc", __base__=LightModel, **fields)


class Loose(LightValues, ConfigModel):
    model_config = ConfigDict(extra="allow")
    name: str


@pytest.mark.parametrize(
    ("model", "words"),
    [
        (_model(items=(list[str], Field(default_factory=list))), "a default factory"),
        (_model(name=(Annotated[str, AfterValidator(str.strip)], "")), "has no plain function"),
        (_model(size=(Annotated[int, Field(ge=1)], 1)), "metadata"),
        (_model(pair=(tuple[str, str], ("a", "b"))), "type"),
        (_model(either=(list[str] | dict[str, str], [])), "without a discriminator"),
        (_model(name=(str, Field("", validation_alias="nom"))), "validation alias"),
        (Loose, "unknown keys allowed"),
        (create_model("Bare", __base__=ConfigModel, name=(str, "")), "subclasses no light class"),
        (_model(name=(Annotated[str, before(str.strip)], "")), "registered under no name"),
        (create_model("Other", __base__=LightModel, name=(str, "")), "not registered under its name"),
        (type("Unnamed", (Unregistered, ConfigModel), {"__annotations__": {"name": str}}), "not registered under"),
    ],
)
def test_a_model_the_table_cannot_describe_stops_the_generation(model: type[BaseModel], words: str) -> None:
    with pytest.raises(Unsupported, match=words):
        _shape(_Walker(), model)


def test_check_says_whether_the_committed_tables_are_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert capsys.readouterr().out.strip() == "the shape tables are current"
    assert TABLE.name == "shapes.json"


def test_check_fails_on_a_stale_cloud_table(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "settings_shape.json"
    stale.write_text('{"SHAPES": {}}\n', encoding="utf-8")
    monkeypatch.setitem(TABLES, "GkeSettingsConfig", stale)
    assert main(["--check"]) == 1
    assert capsys.readouterr().out.strip().endswith("settings_shape.json")


def test_the_core_table_names_no_cloud_and_each_cloud_s_table_sits_in_its_package() -> None:
    found = tables()
    core = found.pop(TABLE)
    assert not any(name.endswith("SettingsConfig") and name != "StackSettingsConfig" for name in core["SHAPES"])
    assert [path.relative_to(ROOT).parent.parent.as_posix() for path in found] == ["components/gpuready"] * len(found)
    assert all(
        path.name == "settings_shape.json" and set(table) == {"SHAPES", "STACK_KEYS"} for path, table in found.items()
    )


def test_the_joined_shape_made_from_the_tables_is_the_joined_model_s() -> None:
    """``stack_values.joined`` builds from the registered clouds' tables what the table of
    ``settings_model.stack_config_model`` would be, key for key (and so the same Pulumi types)."""
    expected = json.loads(json.dumps(_shape(_Walker(), stack_config_model(), light=False)))
    assert fast.entry(joined()) == expected
    assert list(table_pulumi_types().items()) == list(pulumi_types().items())
