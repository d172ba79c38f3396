"""One exception hierarchy: every error class gpuready defines derives from ``GpuReadyError``."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import gpuready
from gpuready.errors import GpuReadyError


def test_every_error_gpuready_defines_is_a_gpuready_error() -> None:
    defined: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(gpuready.__path__, "gpuready."):
        module = importlib.import_module(info.name)
        defined += [
            cls
            for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, BaseException) and cls.__module__ == info.name
        ]
    assert len(defined) > 10  # the walk found the errors (kube, verify, offline, plan diff, ...)
    signals = [cls for cls in defined if not issubclass(cls, Exception)]
    assert [cls.__qualname__ for cls in signals] == ["Interrupted"]  # a stop signal, like KeyboardInterrupt:
    # deliberately outside the hierarchy, so no ``except GpuReadyError`` / ``except Exception`` swallows it
    assert [cls.__qualname__ for cls in defined if cls not in signals and not issubclass(cls, GpuReadyError)] == []
