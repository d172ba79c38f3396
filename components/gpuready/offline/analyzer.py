"""Evaluate Pulumi policies on a captured run through the Analyzer protocol the engine speaks.

The engine drives a policy pack with ``GetAnalyzerInfo``, ``Configure`` (every policy's enforcement level and
config, schema defaults applied), ``ConfigureStack``, one ``Analyze`` per resource with the raw input Struct,
and ``AnalyzeStack`` with parents and dependencies. This module sends the same requests, either to
pulumi_policy's own servicer in-process (the private ``_PolicyAnalyzerServicer``, shared testing notes 3) or to
the real pack process over gRPC. Policies therefore see what they see under ``pulumi preview``: read-only
proxies, numbers as floats, preview unknowns turned into advisory "can't run policy" diagnostics.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol, cast

import grpc  # type: ignore[import-untyped]  # no stubs installed
from google.protobuf import empty_pb2  # type: ignore[import-untyped]
from pulumi.runtime.proto import analyzer_pb2, analyzer_pb2_grpc
from pulumi_policy import EnforcementLevel, Policy

from gpuready.gc_pause import paused_gc
from gpuready.offline.analyzer_requests import (
    PolicyConfigError,
    analyze_request,
    analyze_stack_request,
    configure_request,
    stack_configure_request,
)
from gpuready.offline.capture import CapturedRun
from gpuready.offline.policy_run import Violation, evaluate, violations
from gpuready.offline.sdk_private import _PolicyAnalyzerServicer

PACK_MODULE = "gpuready.policy.policies"
PACK_DIR = Path(__file__).resolve().parents[3] / "policies" / "gpu_conventions"
PACK_VERSION = "0.0.1"
"""What ``PolicyPack`` reports as its version (the CLI takes the real one from PulumiPolicy.yaml)."""


class AnalyzerEndpoint(Protocol):
    """The Analyzer RPCs, as a servicer in-process or a stub over gRPC."""

    def info(self) -> analyzer_pb2.AnalyzerInfo: ...
    def configure(self, request: analyzer_pb2.ConfigureAnalyzerRequest) -> None: ...
    def configure_stack(self, request: analyzer_pb2.AnalyzerStackConfigureRequest) -> None: ...
    def analyze(self, request: analyzer_pb2.AnalyzeRequest) -> analyzer_pb2.AnalyzeResponse: ...
    def analyze_stack(self, request: analyzer_pb2.AnalyzeStackRequest) -> analyzer_pb2.AnalyzeResponse: ...


class InProcessAnalyzer:
    """pulumi_policy's servicer for ``policies``, called directly (no gRPC, same requests)."""

    def __init__(self, pack_name: str, policies: Sequence[Policy]) -> None:
        servicer = _PolicyAnalyzerServicer(pack_name, PACK_VERSION, list(policies), EnforcementLevel.ADVISORY)
        self._servicer: Any = servicer  # its RPC methods are unannotated

    def info(self) -> analyzer_pb2.AnalyzerInfo:
        return cast(analyzer_pb2.AnalyzerInfo, self._servicer.GetAnalyzerInfo(empty_pb2.Empty(), None))

    def configure(self, request: analyzer_pb2.ConfigureAnalyzerRequest) -> None:
        self._servicer.Configure(request, None)

    def configure_stack(self, request: analyzer_pb2.AnalyzerStackConfigureRequest) -> None:
        self._servicer.ConfigureStack(request, None)

    def analyze(self, request: analyzer_pb2.AnalyzeRequest) -> analyzer_pb2.AnalyzeResponse:
        return cast(analyzer_pb2.AnalyzeResponse, self._servicer.Analyze(request, None))

    def analyze_stack(self, request: analyzer_pb2.AnalyzeStackRequest) -> analyzer_pb2.AnalyzeResponse:
        return cast(analyzer_pb2.AnalyzeResponse, self._servicer.AnalyzeStack(request, None))


class GrpcAnalyzer:
    """A running policy pack, reached over gRPC like the engine reaches it."""

    def __init__(self, stub: analyzer_pb2_grpc.AnalyzerStub) -> None:
        self._stub = stub

    def info(self) -> analyzer_pb2.AnalyzerInfo:
        return cast(analyzer_pb2.AnalyzerInfo, self._stub.GetAnalyzerInfo(empty_pb2.Empty()))

    def configure(self, request: analyzer_pb2.ConfigureAnalyzerRequest) -> None:
        self._stub.Configure(request)

    def configure_stack(self, request: analyzer_pb2.AnalyzerStackConfigureRequest) -> None:
        self._stub.ConfigureStack(request)

    def analyze(self, request: analyzer_pb2.AnalyzeRequest) -> analyzer_pb2.AnalyzeResponse:
        return cast(analyzer_pb2.AnalyzeResponse, self._stub.Analyze(request))

    def analyze_stack(self, request: analyzer_pb2.AnalyzeStackRequest) -> analyzer_pb2.AnalyzeResponse:
        return cast(analyzer_pb2.AnalyzeResponse, self._stub.AnalyzeStack(request))


def load_pack() -> tuple[str, list[Policy]]:
    """The gpuready-gpu-conventions pack's name and policies, imported from the checkout."""
    try:
        module = importlib.import_module(PACK_MODULE)
    except ImportError as error:
        raise PolicyConfigError(
            f"cannot import the policy pack {PACK_MODULE} ({error}); run from a gpuready checkout, or pass --no-policy"
        ) from error
    return str(module.PACK_NAME), list(module.POLICIES)


def load_policy_config(path: Path) -> dict[str, Any]:
    """A policy config file in the engine's ``--policy-pack-config`` format: ``{"all": level,
    "<policy>": level | {"enforcementLevel": level, "<property>": value}}``."""
    try:
        document = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as error:
        raise PolicyConfigError(f"cannot read policy config {path}: {error}") from error
    if not isinstance(document, dict):
        raise PolicyConfigError(f"policy config {path} must be a JSON object of policy name -> config")
    return document


def analyze_pack(run: CapturedRun, *, config: Mapping[str, Any] | None = None) -> list[Violation]:
    """Evaluate the gpuready-gpu-conventions pack on ``run`` in-process."""
    return gate(run, config=config)[0]


def gate(
    run: CapturedRun, *, config: Mapping[str, Any] | None = None
) -> tuple[list[Violation], list[Policy], analyzer_pb2.ConfigureAnalyzerRequest]:
    """``analyze_pack``, with the pack's policies and the ``Configure`` request it ran with (what
    ``gate_summary`` reads, so the pack is neither asked nor configured twice)."""
    name, policies = load_pack()
    configure = configure_request(InProcessAnalyzer(name, policies).info(), config)
    with paused_gc():
        return _analyze_scoped(run, policies, name, configure), policies, configure


def analyze_run(
    run: CapturedRun,
    policies: Sequence[Policy],
    *,
    pack_name: str,
    config: Mapping[str, Any] | None = None,
    scoped: bool = True,
) -> list[Violation]:
    """Evaluate ``policies`` on every resource of ``run`` with pulumi_policy's servicer, in-process.

    With ``scoped`` (``policy_run.evaluate``), a resource goes only to the policies whose ``resource_types`` name
    its type (policies without that attribute get every resource) and is decoded once for all of them, each
    stack policy gets only the resources of its types, and a stack policy whose ``requires_types`` are all absent
    is skipped: the answers are the engine's. Without, every resource goes through the servicer's ``Analyze``
    and ``AnalyzeStack`` as the engine sends them. The cyclic GC is paused meanwhile, as in the runner.

    Raises:
        PolicyConfigError: ``config`` names an unknown policy or property, or has a bad level or type.
    """
    full = InProcessAnalyzer(pack_name, policies)
    configure = configure_request(full.info(), config)
    with paused_gc():
        if not scoped:
            return analyze_endpoint(full, run, configure)
        return _analyze_scoped(run, policies, pack_name, configure)


def _analyze_scoped(
    run: CapturedRun, policies: Sequence[Policy], pack_name: str, configure: analyzer_pb2.ConfigureAnalyzerRequest
) -> list[Violation]:
    found = evaluate(run, policies, pack_name=pack_name, pack_version=PACK_VERSION, configure=configure)
    return sortviolations(found)


def analyze_endpoint(
    endpoint: AnalyzerEndpoint, run: CapturedRun, configure: analyzer_pb2.ConfigureAnalyzerRequest | None = None
) -> list[Violation]:
    """Drive one analyzer the way the engine does: configure it, ``Analyze`` every resource, ``AnalyzeStack`` once."""
    endpoint.configure(configure if configure is not None else configure_request(endpoint.info(), None))
    endpoint.configure_stack(stack_configure_request(run))
    by_urn = {r.urn: r for r in run.resources}
    found: list[Violation] = []
    for resource in run.resources:
        found += violations(endpoint.analyze(analyze_request(resource, by_urn)), resource.urn)
    found += violations(endpoint.analyze_stack(analyze_stack_request(run.resources, by_urn)), run.stack_urn)
    return sortviolations(found)


@contextmanager
def pack_process(
    pack_dir: Path = PACK_DIR, *, python: str = sys.executable, timeout: float = 60
) -> Iterator[GrpcAnalyzer]:
    """Start ``python -u <pack_dir>/__main__.py`` from ``pack_dir``, read the port it prints, and connect."""
    with tempfile.TemporaryFile() as stderr:
        process = subprocess.Popen(
            [python, "-u", str(pack_dir / "__main__.py")], cwd=pack_dir, stdout=subprocess.PIPE, stderr=stderr
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline().strip()
            if not line.isdigit():
                process.wait(timeout)
                stderr.seek(0)
                raise PolicyConfigError(
                    f"policy pack {pack_dir} did not start: {stderr.read().decode(errors='replace')}"
                )
            channel = grpc.insecure_channel(f"127.0.0.1:{int(line)}")
            try:
                grpc.channel_ready_future(channel).result(timeout=timeout)
                yield GrpcAnalyzer(analyzer_pb2_grpc.AnalyzerStub(channel))
            finally:
                channel.close()
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stdout is not None:
                process.stdout.close()


def sortviolations(violations: Sequence[Violation]) -> list[Violation]:
    """Mandatory first, then by policy, resource and message."""
    return sorted(violations, key=lambda v: (v.level != "mandatory", v.policy, v.resource, v.message))
