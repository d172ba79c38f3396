"""Request bodies in, injected faults out: a status, a dropped socket, a malformed body, an in-band watch error."""

from __future__ import annotations

import contextlib
import json
import socket
from email.message import Message
from io import BufferedIOBase
from typing import TYPE_CHECKING

from . import errors
from .errors import StatusError
from .faults import Fault
from .resources import parse_resource_path

if TYPE_CHECKING:
    from .handler import StandinHandler


def read_body(rfile: BufferedIOBase, headers: Message) -> bytes:
    """The request body, chunked or with a Content-Length (always read, so a kept-alive connection stays in sync)."""
    if headers.get("Transfer-Encoding", "").lower() == "chunked":
        chunks: list[bytes] = []
        while size := int(rfile.readline().split(b";")[0].strip() or b"0", 16):
            chunks.append(rfile.read(size))
            rfile.readline()
        while rfile.readline() not in (b"\r\n", b"\n", b""):
            continue  # trailers
        return b"".join(chunks)
    length = int(headers.get("Content-Length") or 0)
    return rfile.read(length) if length > 0 else b""


def answer_fault(handler: StandinHandler, fault: Fault, path: str) -> None:
    """Answer the request ``handler`` is serving as ``fault`` says (raising ``StatusError`` for a status)."""
    label = fault.label()
    handler.record.fault = f"{handler.record.fault}, {label}" if handler.record.fault else label
    if fault.kind == "drop":
        handler.close_connection = True
        with contextlib.suppress(OSError):
            handler.connection.shutdown(socket.SHUT_RDWR)
        return
    if fault.kind == "body":
        handler._send_bytes(fault.status or 200, fault.body, fault.content_type)
        return
    if fault.kind == "watch-error":
        _watch_error(handler, errors.for_status_code(fault.status or 500, fault.message))
        return
    assert fault.status is not None
    target = parse_resource_path(path)
    if fault.status == 409 and fault.message is None and target is not None and target.name:
        raise errors.conflict(target.rt, target.name)
    raise errors.for_status_code(fault.status, fault.message, fault.retry_after)


def _watch_error(handler: StandinHandler, error: StatusError) -> None:
    """200, one in-band ERROR event, end of stream: how an apiserver reports a watch failure after it started."""
    handler.record.status = 200
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    line = json.dumps({"type": "ERROR", "object": error.status()}, separators=(",", ":")).encode() + b"\n"
    handler.wfile.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(line), line))
