"""``python -m tools.shape_table``: the shape table describes every model completely or the generation stops, so the
fast path (``config_model.fast``) never checks a model by a table that leaves part of it out."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, create_model

from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.forms import Values
from tools.shape_table import TABLE, Unsupported, _shape, _Walker, main


class LightValues(Values):
    """A light class for the ad-hoc models."""


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
    ],
)
def test_a_model_the_table_cannot_describe_stops_the_generation(model: type[BaseModel], words: str) -> None:
    with pytest.raises(Unsupported, match=words):
        _shape(_Walker(), model)


def test_check_says_whether_the_committed_table_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert capsys.readouterr().out.strip() == "shapes.json is current"
    assert TABLE.name == "shapes.json"
