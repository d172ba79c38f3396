"""The provider host as ``pulumi package add`` starts it, and the capture monitor served over gRPC to it.

The host: the Python language host runs the package directory's ``__main__.py`` with the engine's address as its
argument; it prints its port, then speaks the provider protocol (``pulumi.runtime.proto.provider_pb2``). The
monitor: the offline engine's ``CaptureMonitor`` (through ``tests.pulumi_mocks.install_mocks``) and the SDK's
``MockEngine``, each behind a gRPC server (their methods take the request only; gRPC passes a context too).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Mapping
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import grpc  # type: ignore[import-untyped]  # no stubs installed
from google.protobuf import empty_pb2, struct_pb2  # type: ignore[import-untyped]
from pulumi.runtime.mocks import MockEngine
from pulumi.runtime.proto import engine_pb2_grpc, provider_pb2, provider_pb2_grpc, resource_pb2_grpc

from tests.pulumi_mocks import CapturingMonitor

ROOT = Path(__file__).resolve().parents[2]


class _Served:
    """A request-only servicer (``MockMonitor``, ``MockEngine``) as a gRPC servicer."""

    def __init__(self, target: object) -> None:
        self._target = target

    def __getattr__(self, method: str) -> Any:
        def handle(request: Any, context: grpc.ServicerContext) -> Any:
            call = getattr(self._target, method, None)
            if call is None:
                context.abort(grpc.StatusCode.UNIMPLEMENTED, f"{method} is not mocked")
                return None
            response = call(request)
            return empty_pb2.Empty() if response is None else response

        return handle


@dataclass
class Host:
    """A running provider host and the monitor its components register with."""

    stub: provider_pb2_grpc.ResourceProviderStub
    monitor_address: str
    monitor: CapturingMonitor

    def construct(
        self, type_: str, name: str, inputs: Mapping[str, Any], providers: Mapping[str, str] | None = None
    ) -> Any:
        """Call Construct as the engine would for a program of project ``gpuready``, stack ``test``; ``providers``:
        package -> provider reference (``<urn>::<id>``), as the engine passes the resource options' providers."""
        struct = struct_pb2.Struct()
        struct.update(dict(inputs))
        request = provider_pb2.ConstructRequest(
            project="gpuready", stack="test", monitorEndpoint=self.monitor_address, type=type_, name=name,
            inputs=struct, parallel=1, dryRun=False, providers=dict(providers or {}),
        )  # fmt: skip
        return self.stub.Construct(request, timeout=120)

    def schema(self) -> str:
        return str(self.stub.GetSchema(provider_pb2.GetSchemaRequest(version=0), timeout=60).schema)


@contextmanager
def provider_host(monitor: CapturingMonitor) -> Iterator[Host]:
    """Serve ``monitor`` and a mock engine, start the host as the language host does, and stop both after."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    resource_pb2_grpc.add_ResourceMonitorServicer_to_server(cast("Any", _Served(monitor)), server)
    engine_pb2_grpc.add_EngineServicer_to_server(cast("Any", _Served(MockEngine(None))), server)
    address = f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}"
    server.start()
    host = subprocess.Popen(
        [sys.executable, str(ROOT), address], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert host.stdout is not None
        port = host.stdout.readline().strip()
        assert port.isdigit(), f"the provider host printed no port: {port!r} {host.stderr and host.stderr.read()}"
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        yield Host(provider_pb2_grpc.ResourceProviderStub(channel), address, monitor)
        channel.close()
    finally:
        host.terminate()
        host.wait(timeout=30)
        server.stop(None)
