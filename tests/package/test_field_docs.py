"""Field docstrings read for the package schema: the same descriptions pydantic's own option reads."""

from __future__ import annotations

import json

import pytest
from pydantic import ConfigDict

from gpuready.core.config_model.base import ConfigModel
from gpuready.core.config_model.gpu_stack_model import GpuStackConfig
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.config_model.scheduler_model import BinPackSchedulerConfig
from gpuready.core.config_model.settings_model import StackSettingsConfig
from gpuready.package.field_docs import documented, field_docstrings


class _Inner(ConfigModel):
    size: int
    """How big.

        Indented continuation."""
    label: str = ""


class _Outer(ConfigModel):
    inner: _Inner
    """The inner mapping."""
    items: list[_Inner] = []
    plain: int = 0
    "A one-quote docstring."

    def method(self) -> None:
        hidden: int = 1
        """Not a field's docstring."""
        del hidden


class _InnerTwin(ConfigModel):
    model_config = ConfigDict(use_attribute_docstrings=True)
    size: int
    """How big.

        Indented continuation."""
    label: str = ""


class _OuterTwin(ConfigModel):
    model_config = ConfigDict(use_attribute_docstrings=True)
    inner: _InnerTwin
    """The inner mapping."""
    items: list[_InnerTwin] = []
    plain: int = 0
    "A one-quote docstring."


def test_field_docstrings_are_the_literal_after_each_field() -> None:
    assert field_docstrings(_Inner) == {"size": "How big.\n\nIndented continuation."}
    assert field_docstrings(_Outer) == {"inner": "The inner mapping.", "plain": "A one-quote docstring."}


def test_documented_models_have_the_schema_of_pydantic_option() -> None:
    documented(_Outer)
    twin = json.dumps(_OuterTwin.model_json_schema(by_alias=True)).replace("Twin", "")
    assert json.dumps(_Outer.model_json_schema(by_alias=True)) == twin


@pytest.mark.parametrize("model", [PoolConfig, GpuStackConfig, BinPackSchedulerConfig, StackSettingsConfig])
def test_importing_a_model_reads_no_source(model: type[ConfigModel]) -> None:
    # The plan imports the models; only the schema reads their docstrings (gpuready.package.field_docs).
    assert model.model_config.get("use_attribute_docstrings") is not True
