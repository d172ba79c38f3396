"""Run a Pulumi Python program under the SDK's mock runtime: no CLI, no engine, no credentials.

Each run gets fresh SDK settings, root stack, config and monitor inside its own ``contextvars``
context, so consecutive runs in one process see nothing of each other. The program runs the way
the Python language host runs it (``pulumi.runtime.run_in_stack``); its exceptions propagate as is.
"""

from __future__ import annotations

import asyncio
import builtins
import contextvars
import dataclasses
import functools
import json
import logging
import os
import sys
import threading
import warnings
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pulumi.config import ConfigMissingError, ConfigTypeError
from pulumi.runtime import Settings, configure, reset_options, run_in_stack, set_all_config
from pulumi.runtime.proto import engine_pb2

from gpuready.gc_pause import paused_gc
from gpuready.offline.capture import CapturedRun, CaptureMonitor, PlanMocks
from gpuready.offline.project import OfflineProjectError, Project
from gpuready.offline.pulumi_config import load_stack_config
from gpuready.offline.sdk_private import SETTINGS, _get_rpc_manager
from gpuready.offline.sdk_shortcuts import shortcuts

_ORGANIZATION = "organization"  # what the SDK reports when no organization is set (settings.py)


def run_program(
    program_dir: Path,
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: Sequence[str],
    preview: bool = False,
    root_directory: Path | None = None,
) -> CapturedRun:
    """Run ``<program_dir>/__main__.py`` offline and return what it registered and exported.

    Args:
        program_dir: The program's directory (``main`` in Pulumi.yaml).
        project: The ``name`` from Pulumi.yaml; it is also the config namespace.
        stack: The stack name.
        config: The engine's config bag, e.g. ``StackConfig.values``.
        secret_keys: Config keys the program should see as secret.
        preview: Run as ``pulumi preview`` (``pulumi.runtime.is_dry_run()``) instead of ``up``.
        root_directory: What ``pulumi.get_root_directory()`` returns; defaults to ``program_dir``.

    Returns after every registration the program started has finished. Not thread-safe: a run
    changes the working directory, ``sys.path`` and the environment for its duration.

    Raises:
        OfflineProjectError: ``program_dir`` has no ``__main__.py``.
        RuntimeError: called from inside a running event loop.
        Exception: whatever the program raises, unchanged.
    """
    program_dir = program_dir.resolve()
    main = program_dir / "__main__.py"
    if not main.is_file():
        raise OfflineProjectError(f"{program_dir} has no __main__.py", "point 'main' at the program's directory")
    monitor = CaptureMonitor(PlanMocks(), preview=preview)

    def run() -> None:
        # Fresh settings (rpc manager, pending outputs, package refs) and no root stack, so that
        # run_in_stack creates this run's own Stack (settings.py reset_options: ROOT.set(None)).
        reset_options(project=project, stack=stack, preview=preview, organization=_ORGANIZATION)
        # The public Settings with the capture as its monitor. Not set_mocks: it creates the root Stack and
        # finishes it at once (mocks.py), which registers empty exports and closes pulumi.run; run_in_stack
        # registers the exports once the program is done, as the language host does.
        configure(
            Settings(
                project=project,
                stack=stack,
                monitor=monitor,
                engine=_LogEngine(),
                dry_run=preview,
                organization=_ORGANIZATION,
                root_directory=str(root_directory or program_dir),
            )
        )
        set_all_config(dict(config), list(secret_keys))
        loop = _thread_event_loop()
        loop.run_until_complete(run_in_stack(functools.partial(_run_main_then_settle, main)))

    context = contextvars.copy_context()
    with _process_state(program_dir, config, secret_keys), paused_gc(), shortcuts():
        # A copied context keeps this run's settings, root stack and config (all ContextVars in
        # the SDK) away from the caller and from the next run.
        _on_fresh_thread(context, run)
    return dataclasses.replace(monitor.captured(project=project, stack=stack, preview=preview), keepalive=context)


def run_stack(
    project: Project,
    stack: str,
    *,
    config_file: Path | None = None,
    overrides: Sequence[str] = (),
    path_overrides: Sequence[str] = (),
    preview: bool = False,
    root_directory: Path | None = None,
) -> CapturedRun:
    """Run ``project``'s program for ``stack`` with its checked config (``Pulumi.<stack>.yaml`` or ``config_file``,
    then ``key=value`` and ``key.path[0]=value`` overrides), as ``pulumi up`` or ``preview`` would."""
    config = load_stack_config(
        project, stack, config_file=config_file, overrides=overrides, path_overrides=path_overrides
    )
    run = run_program(
        project.program_dir,
        project=project.name,
        stack=stack,
        config=config.values,
        secret_keys=config.secret_keys,
        preview=preview,
        root_directory=root_directory or project.program_dir,
    )
    plain = {k: v for k, v in config.values.items() if k not in set(config.secret_keys)}
    return dataclasses.replace(run, stack_config=plain)


class _LogEngine:
    """The engine side of ``pulumi.log``: the Engine service's ``Log`` RPC (pulumi/pulumi
    ``proto/pulumi/engine.proto``), forwarded to Python's logging by severity, as the SDK's mock engine does."""

    _LEVELS = {
        engine_pb2.DEBUG: logging.DEBUG,
        engine_pb2.INFO: logging.INFO,
        engine_pb2.WARNING: logging.WARNING,
        engine_pb2.ERROR: logging.ERROR,
    }

    def Log(self, request: Any) -> None:  # the gRPC method name
        level = self._LEVELS.get(request.severity)
        if level is not None:
            logging.getLogger().log(level, request.message)


def is_config_error(error: BaseException) -> bool:
    """Whether ``error`` is the SDK's refusal of the program's config (a required key missing, a value of the wrong
    type): bad input, not a failure of the program."""
    return isinstance(error, ConfigMissingError | ConfigTypeError)


def _on_fresh_thread(context: contextvars.Context, run: Callable[[], None]) -> None:
    """Run ``run`` in ``context`` on a new thread and re-raise what it raises.

    The thread gets its own event loop, so a run never touches the caller's.
    """
    failures: list[BaseException] = []

    def target() -> None:
        try:
            context.run(run)
        except BaseException as error:  # noqa: BLE001 - handed back to the calling thread below
            failures.append(error)

    worker = threading.Thread(target=target, name="gpuready-offline-run")
    worker.start()
    worker.join()
    if failures:
        raise failures[0]


def _run_main_then_settle(main: Path) -> Awaitable[None]:
    """Run the program body, then return a wait for everything it started (``run_in_stack`` awaits it)."""
    _run_main(main)
    return _settle()


async def _settle() -> None:
    """Wait for every pending RPC and output with one ALL_COMPLETED wait per round.

    The SDK's own drain (``stack.py`` ``wait_for_rpcs``) waits FIRST_COMPLETED in a loop and re-adds every
    unfinished task each round, which costs time quadratic in the outputs a program left pending (most of
    a 1,000-pool plan's overhead). Settling first leaves it almost nothing to do; it still runs afterwards
    and re-raises failures as it always does.
    """
    while True:
        with SETTINGS.lock:
            outputs = [task for task in SETTINGS.outputs if not task.done()]
        rpcs = [rpc for rpc in _get_rpc_manager().rpcs if isinstance(rpc, asyncio.Future) and not rpc.done()]
        if not outputs and not rpcs:
            return
        await asyncio.wait([*outputs, *rpcs])


def _run_main(main: Path) -> None:
    # exec rather than runpy.run_path: the same module globals as the language host gives __main__,
    # two fewer frames under every registration's recorded stack.
    code = compile(main.read_bytes(), str(main), "exec")
    exec(code, {"__name__": "__main__", "__file__": str(main), "__builtins__": builtins})


def _thread_event_loop() -> asyncio.AbstractEventLoop:
    """This thread's loop: the one the SDK's own blocking helpers pump (``sync_await.py``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Python 3.12+ when no loop is set yet
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
    if loop.is_running():
        raise RuntimeError("run_program cannot run inside a running event loop; call it from a thread")
    return loop


@contextmanager
def _process_state(program_dir: Path, config: Mapping[str, str], secret_keys: Sequence[str]) -> Iterator[None]:
    """Run from the program's directory, as the CLI does, and put the process back afterwards.

    Restores the working directory and ``sys.path``, forgets modules imported from the program's
    directory (the next program may have its own ``config.py``), and replaces the ``PULUMI_CONFIG*``
    variables with this run's: the language host hands a program its whole config bag in ``PULUMI_CONFIG``
    and ``PULUMI_CONFIG_SECRET_KEYS`` (pulumi/pulumi ``sdk/python/cmd/pulumi-language-python``), which is how a
    program lists the keys it was given (``pulumi.runtime.get_config_env``).
    """
    cwd, path, modules = Path.cwd(), list(sys.path), set(sys.modules)
    hidden = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith("PULUMI_CONFIG")}
    os.environ["PULUMI_CONFIG"] = json.dumps(dict(config))
    os.environ["PULUMI_CONFIG_SECRET_KEYS"] = json.dumps(list(secret_keys))
    try:
        os.chdir(program_dir)
        sys.path.insert(0, str(program_dir))
        yield
    finally:
        os.chdir(cwd)
        sys.path[:] = path
        os.environ.pop("PULUMI_CONFIG", None)
        os.environ.pop("PULUMI_CONFIG_SECRET_KEYS", None)
        os.environ.update(hidden)
        # A string prefix test: resolving every new module's path costs ~1 s after the cloud SDKs load, and even
        # normalizing each (``abspath``) 8 M instructions for a plan's 700 modules; a path already absolute and
        # normal is compared as it is.
        prefix = str(program_dir) + os.sep
        for name in set(sys.modules) - modules:
            file = getattr(sys.modules[name], "__file__", None)
            if file and (file if _normal_absolute(file) else os.path.abspath(file)).startswith(prefix):
                del sys.modules[name]


def _normal_absolute(path: str) -> bool:
    """Whether ``os.path.abspath(path)`` is ``path`` itself, told without normalizing it (POSIX paths only)."""
    return (
        os.sep == "/"
        and path.startswith("/")
        and "//" not in path
        and "/./" not in path
        and "/../" not in path
        and not path.endswith(("/", "/.", "/.."))
    )
