"""Cost of ``gpuready.record`` against ``dataclasses.dataclass``: defining classes, then each instance's
construction, ``==``, ``hash`` and ``repr``, measured in one run and printed as ratios (record / dataclass).

- definition: ``--classes`` classes of each of two shapes gpuready uses (``frozen=True, slots=True`` with five
  fields, two of them defaulted; ``frozen=True, kw_only=True, slots=True`` with a ``default_factory``, a
  ``compare=False`` field and a ``__post_init__``), string annotations as in the package; CPU time of the whole
  batch, the sides in turn (interleaved), median of ``--runs`` rounds. "definition + first instance" adds one
  instance of each class, where a record compiles its ``__init__``.
- per instance: ``timeit`` of each operation on one class of each shape (a record's methods compiled after the
  class's first ``record_methods.HOT`` calls), the sides in turn (interleaved), best of ``--runs`` rounds of
  ``--number`` calls, in microseconds summed over the two shapes (the ``timeit`` loop's own call included on both
  sides).
- break-even: a record's construction through its generic ``__init__`` (a class's first ``HOT`` instances) and its
  compiled one, per call, and what compiling an ``__init__`` costs: the instances after which compiling pays.

Issue #32: a class definition must cost a small fraction of a dataclass's, each instance about what a
dataclass's costs. Run: ``.venv/bin/python bench/records.py`` (about 20 seconds).
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import itertools
import operator
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "components"))

from gpuready import record_methods
from gpuready.record import record

_NAMES = itertools.count()


def _post_init(self: Any) -> None:
    object.__setattr__(self, "size", len(self.name))


def _plain(make: Callable[..., Any]) -> type:
    body = {
        "__module__": __name__,
        "__annotations__": {"name": "str", "count": "int", "zone": "str", "ready": "bool", "weight": "float"},
        "ready": False,
        "weight": 1.0,
    }
    return make(frozen=True, slots=True)(type(f"Plain{next(_NAMES)}", (), body))  # type: ignore[no-any-return]


def _keyword(make: Callable[..., Any]) -> type:
    body = {
        "__module__": __name__,
        "__annotations__": {"name": "str", "tags": "tuple[str, ...]", "labels": "dict[str, str]", "size": "int"},
        "tags": (),
        "labels": dataclasses.field(default_factory=dict, compare=False),
        "size": dataclasses.field(default=0, repr=False, compare=False),
        "__post_init__": _post_init,
    }
    return make(frozen=True, kw_only=True, slots=True)(type(f"Keyword{next(_NAMES)}", (), body))  # type: ignore[no-any-return]


def _first(cls: type) -> Any:
    return cls("gpu", 4, "a") if cls.__name__.startswith("Plain") else cls(name="gpu", tags=("x",))


def definition(make: Callable[..., Any], classes: int, *, instantiate: bool) -> float:
    """CPU seconds to define ``classes`` classes of each shape (and make one instance of each)."""
    start = time.process_time()
    for _ in range(classes):
        for shape in (_plain, _keyword):
            cls = shape(make)
            if instantiate:
                _first(cls)
    return time.process_time() - start


def statements(make: Callable[..., Any], operation: str) -> list[Callable[[], Any]]:
    """``operation`` on an instance of each shape, the class's methods already compiled."""
    found: list[Callable[[], Any]] = []
    for shape in (_plain, _keyword):
        cls = shape(make)
        a, b = _first(cls), _first(cls)
        _ = (a == b, hash(a), repr(a))  # compiles a record's methods before the clock
        table: dict[str, Callable[[], Any]] = {
            "construction": partial(_first, cls),
            "==": partial(operator.eq, a, b),
            "hash": partial(hash, a),
            "repr": partial(repr, a),
        }
        found.append(table[operation])
    return found


def break_even(classes: int, runs: int, number: int) -> None:
    """Print a record's generic and compiled construction per call, what compiling an ``__init__`` costs, and the
    instances after which compiling pays (what ``record_methods.HOT`` is set from)."""
    hot = record_methods.HOT
    per_call: dict[str, float] = {}
    for path, threshold in (("generic", 10**9), ("compiled", 0)):
        record_methods.HOT = threshold
        calls = statements(record, "construction")
        for call in calls:
            call()  # compiles (threshold 0) before the clock
        per_call[path] = min(sum(timeit.timeit(c, number=number) for c in calls) for _ in range(runs)) / number
    record_methods.HOT = hot
    built = [shape(record) for _ in range(classes) for shape in (_plain, _keyword)]
    start = time.process_time()
    for cls in built:
        record_methods.compiled(cls, "__init__", *record_methods.init_source(cls, True))
    compiling = (time.process_time() - start) / len(built) * 2  # per class of each shape, as the per-call sums
    print(f"construction, us per call (2 shapes): generic {per_call['generic'] * 1e6:.3f}, compiled "
          f"{per_call['compiled'] * 1e6:.3f}; compiling both __init__s {compiling * 1e6:.0f} us: pays after "
          f"{compiling / (per_call['generic'] - per_call['compiled']):.0f} instances (HOT = {hot})")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--classes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--number", type=int, default=50_000)
    args = parser.parse_args(argv)
    gc.disable()  # as a plan runs
    sides: dict[str, Callable[..., Any]] = {"dataclass": dataclasses.dataclass, "record": record}
    print(f"{'measure':>42} {'dataclass':>10} {'record':>10} {'record/dataclass':>17}")
    for label, instantiate in (("definition", False), ("definition + first instance", True)):
        samples: dict[str, list[float]] = {side: [] for side in sides}
        for run in range(args.runs):
            for side in sides if run % 2 == 0 else reversed(sides):
                samples[side].append(definition(sides[side], args.classes, instantiate=instantiate))
        ms = {side: statistics.median(values) * 1e3 / (2 * args.classes) for side, values in samples.items()}
        print(f"{label + ', ms per class':>42} {ms['dataclass']:>10.3f} {ms['record']:>10.3f} "
              f"{ms['record'] / ms['dataclass']:>17.2f}")  # fmt: skip
    for operation in ("construction", "==", "hash", "repr"):
        calls = {side: statements(make, operation) for side, make in sides.items()}
        best: dict[str, list[float]] = {side: [float("inf")] * 2 for side in sides}
        for run in range(args.runs):
            for side in sides if run % 2 == 0 else reversed(sides):
                for shape, call in enumerate(calls[side]):
                    best[side][shape] = min(best[side][shape], timeit.timeit(call, number=args.number))
        us = {side: sum(best[side]) / args.number * 1e6 for side in sides}
        print(f"{operation + ', us per call (2 shapes)':>42} {us['dataclass']:>10.3f} {us['record']:>10.3f} "
              f"{us['record'] / us['dataclass']:>17.2f}")  # fmt: skip
    break_even(args.classes, args.runs, args.number)
    return 0


if __name__ == "__main__":
    sys.exit(main())
