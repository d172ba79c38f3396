"""The one adapter from pydantic's ``ValidationError`` to problems: paths, values, allowed sets, hints, close-only
suggestions, and every problem at once. Table-driven over small models made for the test and the real ones."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import pytest
from pydantic import Field, field_validator

from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.pool_model import PoolConfig
from gpuready.core.config_model.problems import config_error, rebased, validate
from gpuready.errors import ConfigError, Problem


class Inner(ConfigModel):
    count: int
    size: Literal["small", "large"] = "small"


class Plain(ConfigModel):
    mode: Literal["plain"]
    level: int = 1


class Fancy(ConfigModel):
    mode: Literal["fancy"]
    colour: str


class Outer(ConfigModel):
    words: ClassVar = {
        "capacity": Words("unknown capacity type"),
        "style.mode": Words("unknown style", "plain or fancy"),
        "names:string_type": Words("must be a string (quote numbers)"),
        "name:missing": Words("is required", "name: gpu"),
    }
    shape: ClassVar = Words("must be a mapping of settings", "e.g. {name: gpu}")

    name: str
    capacity: Literal["on-demand", "spot"] = "on-demand"
    inner: Inner | None = None
    items: list[Inner] = []
    names: dict[str, str] = {}
    style: Annotated[Plain | Fancy, Field(discriminator="mode")] | None = None
    secret: str = ""

    @field_validator("secret", mode="before")
    @classmethod
    def _secret(cls, value: Any) -> Any:
        if not isinstance(value, str):
            raise config_error("must be a string (not shown)", "set it as a secret", hidden=True)
        return value


OUTER_KEYS = ["capacity", "inner", "items", "name", "names", "secret", "style"]

# (input, expected problem)
CASES = [
    pytest.param({"name": "a", "capacty": "spot"}, Problem("p.capacty", "unknown key", None, OUTER_KEYS,
                 "did you mean 'capacity'?"), id="unknown-key-close"),
    pytest.param({"name": "a", "diskSize": 1}, Problem("p.diskSize", "unknown key", None, OUTER_KEYS),
                 id="unknown-key-far"),
    pytest.param({"name": "a", "NAMES": {}}, Problem("p.NAMES", "unknown key", None, OUTER_KEYS,
                 "did you mean 'names'?"), id="unknown-key-case"),
    pytest.param({}, Problem("p.name", "is required", None, (), "name: gpu"), id="missing-with-hint"),
    pytest.param({"name": 5}, Problem("p.name", "must be a string", 5), id="string-type"),
    pytest.param({"name": "a", "capacity": "Spot"}, Problem("p.capacity", "unknown capacity type", "Spot",
                 ("on-demand", "spot"), "did you mean 'spot'?"), id="literal-case-insensitive"),
    pytest.param({"name": "a", "capacity": "reserved"}, Problem("p.capacity", "unknown capacity type", "reserved",
                 ("on-demand", "spot")), id="literal-far"),
    pytest.param({"name": "a", "capacity": 1}, Problem("p.capacity", "must be a string", 1), id="literal-not-string"),
    pytest.param({"name": "a", "inner": {"count": True}}, Problem("p.inner.count", "must be a whole number", True),
                 id="bool-is-not-int"),
    pytest.param({"name": "a", "inner": {"count": "2"}}, Problem("p.inner.count", "must be a whole number", "2"),
                 id="no-coercion"),
    pytest.param({"name": "a", "inner": "x"}, Problem("p.inner", "must be a mapping", "x"), id="nested-not-mapping"),
    pytest.param({"name": "a", "items": [{"count": 1}, {"size": "large"}]}, Problem("p.items[1].count", "is required"),
                 id="list-index-path"),
    pytest.param({"name": "a", "items": {}}, Problem("p.items", "must be a list", {}), id="list-type"),
    pytest.param({"name": "a", "names": {"team": 1}}, Problem("p.names['team']", "must be a string (quote numbers)", 1),
                 id="mapping-value-words"),
    pytest.param({"name": "a", "style": {"mode": "fansy"}}, Problem("p.style.mode", "unknown style", "fansy",
                 ("plain", "fancy"), "did you mean 'fancy'? plain or fancy"), id="discriminator-unknown"),
    pytest.param({"name": "a", "style": {}}, Problem("p.style.mode", "is required"), id="discriminator-missing"),
    pytest.param({"name": "a", "style": {"mode": "plain", "colour": "red"}}, Problem("p.style.colour", "unknown key",
                 None, ["level", "mode"]), id="key-of-the-other-member"),
    pytest.param({"name": "a", "style": {"mode": "fancy", "colour": 3}},
                 Problem("p.style.colour", "must be a string", 3), id="member-field-path"),
    pytest.param({"name": "a", "secret": {"token": "s3cr3t"}}, Problem("p.secret", "must be a string (not shown)", None,
                 (), "set it as a secret"), id="hidden-value"),
]  # fmt: skip


@pytest.mark.parametrize(("raw", "expected"), CASES)
def test_one_error_becomes_one_problem(raw: dict[str, Any], expected: Problem) -> None:
    with pytest.raises(ConfigError) as raised:
        validate(Outer, raw, "p")
    assert raised.value.problems == (expected,)


def test_a_value_that_is_no_mapping_is_worded_by_the_model() -> None:
    with pytest.raises(ConfigError) as raised:
        validate(Outer, ["a"], "p")
    assert raised.value.problems == (Problem("p", "must be a mapping of settings", ["a"], (), "e.g. {name: gpu}"),)


def test_every_problem_comes_at_once() -> None:
    raw = {"name": 1, "capacity": "Spot", "inner": {"count": "1", "sise": "small"}, "style": {"mode": "x"}, "zz": 0}
    with pytest.raises(ConfigError) as raised:
        validate(Outer, raw, "p")
    assert sorted(p.path for p in raised.value.problems) == [
        "p.capacity", "p.inner.count", "p.inner.sise", "p.name", "p.style.mode", "p.zz",
    ]  # fmt: skip
    (sise,) = (p for p in raised.value.problems if p.path == "p.inner.sise")
    assert (sise.allowed, sise.hint) == (("count", "size"), "did you mean 'size'?")


def test_a_namespace_prefix_takes_no_dot() -> None:
    with pytest.raises(ConfigError) as raised:
        validate(Outer, {"name": 1}, "gpuready:")
    assert [p.path for p in raised.value.problems] == ["gpuready:name"]


def test_null_counts_as_absent() -> None:
    assert validate(Outer, {"name": "a", "inner": None, "capacity": None}, "p").capacity == "on-demand"


def test_problems_are_rebased_onto_the_config_path() -> None:
    problems = [Problem("gpuStack.namespace", "bad", "x")]
    assert rebased(problems, "gpuStack", "gpuready:stacks[2].gpuStack") == [
        Problem("gpuready:stacks[2].gpuStack.namespace", "bad", "x")
    ]


def test_the_real_pool_model_reports_under_its_tag_free_path() -> None:
    """The tag of a discriminated union (``mps``) and a plain union's label (``counts``) never show in a path."""
    raw = {"name": "a", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 1,
           "sharing": {"mode": "mig", "layout": {"1g.10gb": "7"}, "replicas": 2}}  # fmt: skip
    with pytest.raises(ConfigError) as raised:
        validate(PoolConfig, raw, "nodePools[0]")
    assert sorted((p.path, p.problem) for p in raised.value.problems) == [
        ("nodePools[0].sharing.layout['1g.10gb']", "must be a whole number"),
        ("nodePools[0].sharing.replicas", "unknown key"),
    ]
