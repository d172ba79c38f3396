"""``record`` behaves as ``dataclasses.dataclass`` for every option gpuready uses: each case runs the same operation on
a class built by each decorator from the same body and compares what it returns or raises."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from dataclasses import KW_ONLY, InitVar, dataclass, field
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from gpuready import record_methods
from gpuready.record import record

Decorator = Callable[..., Any]


def define(make: Decorator) -> SimpleNamespace:
    """The same classes, built by ``make`` (``dataclass`` or ``record``)."""

    @make(frozen=True, slots=True)
    class Point:
        """A point."""

        x: int
        y: str = "a"
        unit: ClassVar[str] = "m"

    @make(frozen=True, kw_only=True, slots=True)
    class Pool:
        name: str
        tags: tuple[str, ...] = field(default_factory=tuple)
        note: str = field(default="", compare=False)
        size: int = field(init=False, repr=False, compare=False)
        hidden: int = field(default=7, repr=False)

        def __post_init__(self) -> None:
            object.__setattr__(self, "size", len(self.name))

    @make(frozen=True, kw_only=True)
    class Settings:
        stack: str
        points: list[Point] = field(default_factory=list)
        scale: InitVar[int | None] = None  # type: ignore[assignment]  # ``make`` is untyped here
        total: int = field(init=False, repr=False, compare=False)

        def __post_init__(self, scale: int | None) -> None:
            object.__setattr__(self, "total", len(self.points) * (scale or 1))

    @make(frozen=True)
    class Base:
        kind: str
        weight: float = 1.0

    @make(frozen=True)
    class Child(Base):
        label: str = ""

    @make(frozen=True, slots=True)
    class Single:
        value: object

    @make(frozen=True, slots=True)
    class Empty:
        pass

    @make(slots=True)
    class Mutable:
        count: int
        seen: list[int] = field(default_factory=list)

    @make(kw_only=True)
    class Loose:
        first: int
        second: int = 2

    @make(frozen=True)
    class Marked:
        lead: int
        _: KW_ONLY
        rest: int = 0

    @make(frozen=True)
    class Hashed:
        value: int

        def __hash__(self) -> int:
            return 42

    @make(frozen=True, slots=True)
    class Tree:
        children: tuple[Any, ...] = ()

    @make
    class Bare:
        value: int = 0

    class Plain(Base):
        """A plain subclass of a record."""

    return SimpleNamespace(**{c.__name__: c for c in (
        Point, Pool, Settings, Base, Child, Single, Empty, Mutable, Loose, Marked, Hashed, Tree, Bare, Plain
    )})  # fmt: skip


DATACLASSES, RECORDS = define(dataclass), define(record)


def outcome(operation: Callable[[SimpleNamespace], Any], classes: SimpleNamespace) -> Any:
    """What ``operation`` returns, or the type and text of what it raises, as text (instances of the two kinds of
    classes are never equal to each other, their reprs are the same)."""
    try:
        return repr(operation(classes))
    except Exception as error:  # noqa: BLE001 (the error is the outcome compared)
        return repr(("raised", type(error), str(error)))


def _recursive(c: SimpleNamespace) -> str:
    leaves: list[Any] = []
    tree = c.Tree((leaves,))
    leaves.append(tree)
    return repr(tree)


def _error_type(action: Callable[[], Any]) -> type[BaseException] | None:
    try:
        action()
    except dataclasses.FrozenInstanceError as error:
        return type(error)
    return None


def _assigned(mutable: Any) -> tuple[Any, ...]:
    mutable.count = 4
    return mutable.count, mutable.seen


def _matched(point: Any, kind: type) -> Any:
    match point:
        case kind(x, y):  # type: ignore[misc]
            return x, y
    return None


def _set(c: SimpleNamespace, target: Any, name: str) -> None:
    setattr(target, name, 1)


OPERATIONS: dict[str, Callable[[SimpleNamespace], Any]] = {
    "repr": lambda c: repr(c.Point(1)),
    "repr hides repr=False": lambda c: repr(c.Pool(name="gpu", tags=("a",))),
    "repr of nested": lambda c: repr(c.Settings(stack="dev", points=[c.Point(2, "b")], scale=3)),
    "repr of a subclass": lambda c: repr(c.Child("k", 2.0, "l")),
    "repr of a plain subclass": lambda c: repr(c.Plain("k")),
    "repr of recursion": _recursive,
    "repr of empty": lambda c: repr(c.Empty()),
    "repr of mutable": lambda c: repr(c.Mutable(3)),
    "eq": lambda c: (c.Point(1) == c.Point(1), c.Point(1) == c.Point(2), c.Point(1) != c.Point(1, "b")),
    "eq ignores compare=False": lambda c: c.Pool(name="a", note="x") == c.Pool(name="a", note="y"),
    "eq needs the same class": lambda c: (c.Base("k") == c.Child("k"), c.Base("k") == c.Plain("k")),
    "eq with another type": lambda c: (c.Point(1) == (1, "a"), c.Point(1).__eq__((1, "a"))),
    "eq of one field (nan)": lambda c: (c.Single(float("nan")) == c.Single(float("nan")), c.Single(1) == c.Single(1)),
    "eq of empty": lambda c: c.Empty() == c.Empty(),
    "hash": lambda c: (hash(c.Point(1)), hash(c.Single("v")), hash(c.Empty()), hash(c.Child("k"))),
    "hash ignores compare=False": lambda c: hash(c.Pool(name="a", note="x")) == hash(c.Pool(name="a")),
    "hash of unhashable field": lambda c: hash(c.Settings(stack="s", points=[])),
    "hash declared in the class": lambda c: hash(c.Hashed(1)),
    "mutable is unhashable": lambda c: (c.Mutable.__hash__, c.Loose.__hash__),
    "frozen assignment": lambda c: _set(c, c.Point(1), "x"),
    "frozen assignment of a new name": lambda c: _set(c, c.Base("k"), "other"),
    "frozen assignment on a plain subclass": lambda c: _set(c, c.Plain("k"), "other"),
    "frozen assignment of a field on a plain subclass": lambda c: _set(c, c.Plain("k"), "kind"),
    "frozen deletion": lambda c: delattr(c.Point(1), "x"),
    "frozen error is FrozenInstanceError": lambda c: _error_type(lambda: _set(c, c.Base("k"), "kind")),
    "mutable assignment": lambda c: _assigned(c.Mutable(3)),
    "missing positional": lambda c: c.Point(),
    "missing keyword": lambda c: c.Pool(),
    "unknown keyword": lambda c: c.Pool(name="a", size=3),
    "unknown keyword, kw_only marker": lambda c: c.Marked(1, 2),
    "positional to kw_only": lambda c: c.Loose(1),
    "too many positional": lambda c: c.Point(1, "a", 3),
    "defaults": lambda c: (c.Pool(name="a"), c.Loose(first=1), c.Marked(1), c.Bare(), c.Child("k")),
    "default_factory is called each time": lambda c: c.Mutable(1).seen is not c.Mutable(1).seen,
    "post_init and InitVar": lambda c: (
        c.Settings(stack="s", points=[c.Point(1)], scale=4).total,
        c.Pool(name="ab").size,
    ),
    "InitVar is not a field": lambda c: [f.name for f in dataclasses.fields(c.Settings)],
    "fields": lambda c: [
        (f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.hash, f.compare, f.kw_only, dict(f.metadata))
        for cls in (c.Point, c.Pool, c.Child, c.Marked) for f in dataclasses.fields(cls)
    ],
    "fields of an instance": lambda c: [f.name for f in dataclasses.fields(c.Point(1))],
    "all declared fields": lambda c: {n: str(f._field_type) for n, f in c.Settings.__dataclass_fields__.items()},
    "replace": lambda c: (dataclasses.replace(c.Point(1), y="z"), dataclasses.replace(c.Pool(name="a"), name="bcd")),
    "replace with an InitVar": lambda c: dataclasses.replace(c.Settings(stack="s"), scale=2),
    "replace of an init=False field": lambda c: dataclasses.replace(c.Pool(name="a"), size=3),
    "asdict": lambda c: dataclasses.asdict(c.Settings(stack="s", points=[c.Point(1)])),
    "astuple": lambda c: dataclasses.astuple(c.Child("k", 2.0)),
    "is_dataclass": lambda c: (dataclasses.is_dataclass(c.Point), dataclasses.is_dataclass(c.Point(1))),
    "params": lambda c: repr(c.Pool.__dataclass_params__),
    "match_args": lambda c: [cls.__match_args__ for cls in (c.Point, c.Pool, c.Child, c.Marked)],
    "match": lambda c: _matched(c.Point(5), c.Point),
    "slots": lambda c: (c.Point.__slots__, hasattr(c.Point(1), "__dict__"), c.Pool.__slots__, c.Mutable.__slots__),
    "no slots": lambda c: (hasattr(c.Base("k"), "__dict__"), "__slots__" in vars(c.Base)),
    "class defaults": lambda c: (c.Base.weight, c.Child.label, hasattr(c.Settings, "points"), c.Bare.value),
    "class variable": lambda c: (c.Point.unit, c.Point(1).unit, "unit" in c.Point.__dataclass_fields__),
    "init signature": lambda c: (
        c.Pool.__init__.__qualname__.split(".")[-2:],
        c.Pool(name="a").__init__.__annotations__,
    ),
    "pickle": lambda c: pickle.loads(pickle.dumps(c.Pool(name="a", tags=("t",)))) == c.Pool(name="a", tags=("t",)),
    "copy": lambda c: (copy.copy(c.Point(1)), copy.deepcopy(c.Settings(stack="s", points=[c.Point(1)]))),
    "copy.replace (Python 3.13)": lambda c: getattr(copy, "replace", dataclasses.replace)(c.Point(1), y="r"),
    "qualname and module": lambda c: (c.Point.__qualname__.split(".")[-1], c.Point.__module__),
}  # fmt: skip


PATHS = {"generic": 10**9, "compiled": 0}  # ``record_methods.HOT``: every call generic, or compiled from the first


@pytest.mark.parametrize("path", list(PATHS))
@pytest.mark.parametrize("operation", list(OPERATIONS), ids=list(OPERATIONS))
def test_record_does_what_dataclass_does(operation: str, path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each operation on records built for the path (their methods run generically, or compiled at once)."""
    monkeypatch.setattr(record_methods, "HOT", PATHS[path])
    assert outcome(OPERATIONS[operation], define(record)) == outcome(OPERATIONS[operation], DATACLASSES)


def test_repr_text_of_an_instance_from_a_record_is_the_dataclass_text() -> None:
    assert repr(RECORDS.Pool(name="gpu", tags=("a",))).endswith("Pool(name='gpu', tags=('a',), note='')")


def _cls(body: dict[str, Any], *bases: type) -> type:
    return type("Defined", bases, {"__module__": __name__, **body})


DEFINITION_ERRORS: dict[str, Callable[[Decorator], Any]] = {
    "non-default after default": lambda make: make(_cls({"__annotations__": {"a": "int", "b": "int"}, "a": 1})),
    "mutable default": lambda make: make(_cls({"__annotations__": {"a": "list[int]"}, "a": []})),
    "field without annotation": lambda make: make(_cls({"a": field(default=1)})),
    "frozen from non-frozen": lambda make: make(frozen=True)(_cls({}, DATACLASSES.Mutable)),
    "non-frozen from frozen": lambda make: make(_cls({}, DATACLASSES.Base)),
    "already has slots": lambda make: make(slots=True)(_cls({"__slots__": ("a",), "__annotations__": {"a": "int"}})),
    "ClassVar with a factory": lambda make: make(
        _cls({"__annotations__": {"a": "ClassVar[int]"}, "a": field(default_factory=int)})
    ),
    "kw_only ClassVar": lambda make: make(_cls({"__annotations__": {"a": "ClassVar[int]"}, "a": field(kw_only=True)})),
    "frozen over a declared __setattr__": lambda make: make(frozen=True)(_cls({"__setattr__": _set})),
}


@pytest.mark.parametrize("case", list(DEFINITION_ERRORS), ids=list(DEFINITION_ERRORS))
def test_record_refuses_the_definitions_dataclass_refuses(case: str) -> None:
    def attempt(make: Decorator) -> Any:
        return outcome(lambda _: DEFINITION_ERRORS[case](make), SimpleNamespace())

    refused = attempt(dataclass)
    assert refused.startswith("('raised'")
    assert attempt(record) == refused


def test_a_record_compiles_a_method_once_the_class_is_hot() -> None:
    @record(frozen=True, slots=True)
    class Lazy:
        value: int

    stub, eq = Lazy.__init__, Lazy.__eq__
    built = [Lazy(n) for n in range(record_methods.HOT)]
    assert [b.value for b in built] == list(range(record_methods.HOT))
    assert Lazy.__init__ is stub  # generic for the class's first HOT instances
    assert Lazy(-1).value == -1
    assert Lazy.__init__ is not stub  # then compiled, installed for every later instance
    assert Lazy.__init__.__qualname__.endswith("Lazy.__init__")
    assert Lazy(2) == Lazy(2)
    assert Lazy.__eq__ is eq  # each method counts its own calls


def test_a_bad_call_compiles_at_once_and_raises_the_dataclass_error() -> None:
    @record(frozen=True)
    class Cold:
        value: int

    stub = Cold.__init__
    with pytest.raises(TypeError, match=r"__init__\(\) got an unexpected keyword argument 'other'"):
        Cold(value=1, other=2)  # type: ignore[call-arg]
    assert Cold.__init__ is not stub


@record(frozen=True, kw_only=True, slots=True)
class _Typed:
    name: str
    tags: tuple[str, ...] = field(default_factory=tuple)
    size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", len(self.name))


def test_mypy_types_a_record_as_a_dataclass() -> None:
    """``make typecheck`` (mypy --strict, unused ignores refused) checks this test: each ignore below is needed, so
    mypy must refuse each call as it refuses it on a dataclass, and each also fails at run time."""
    typed = _Typed(name="gpu")
    assert dataclasses.replace(typed, tags=("a",)).tags == ("a",)
    with pytest.raises(TypeError):
        dataclasses.replace(typed, colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Typed(name="gpu", size=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Typed("gpu")  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        typed.name = "other"  # type: ignore[misc]
    assert [f.name for f in dataclasses.fields(typed)] == ["name", "tags", "size"]
