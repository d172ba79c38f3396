"""The HTTP side: ThreadingHTTPServer with HTTP/1.1 keep-alive, routing, faults, reads and writes."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import discovery, errors
from .errors import StatusError
from .faults import Fault, Faults, RequestInfo
from .injection import answer_fault, read_body
from .params import Query, first, int_param, label_selector
from .patching import apply_patch
from .requestlog import RequestLog, RequestRecord
from .resources import Obj, Target, parse_resource_path
from .store import Store
from .tables import table, wants_table
from .watching import plan_watch, stream_events

logger = logging.getLogger(__name__)


class StandinHTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, port: int, store: Store, requests: RequestLog, faults: Faults, token: str | None) -> None:
        super().__init__(("127.0.0.1", port), StandinHandler)
        self.store = store
        self.requests = requests
        self.faults = faults
        self.token = token
        self.internal_errors: list[str] = []
        self._conn_lock = threading.Lock()
        self._connections: set[socket.socket] = set()

    def track(self, conn: socket.socket, alive: bool) -> None:
        with self._conn_lock:
            if alive:
                self._connections.add(conn)
            else:
                self._connections.discard(conn)

    def close_connections(self) -> None:
        with self._conn_lock:
            conns = list(self._connections)
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)


def _for_list(obj: Obj) -> Obj:
    """Items in a typed list carry no kind/apiVersion on a real apiserver."""
    return {k: v for k, v in obj.items() if k not in ("kind", "apiVersion")}


class StandinHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # without it keep-alive clients hit Nagle + delayed ACK: ~44 ms per call
    server: StandinHTTPServer
    record: RequestRecord
    body: bytes
    trickle: Fault | None = None

    # ------------------------------------------------------------ plumbing

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, True)

    def finish(self) -> None:
        self.server.track(self.connection, False)
        with contextlib.suppress(OSError):
            super().finish()

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._handle()

    def do_POST(self) -> None:
        self._handle()

    def do_PUT(self) -> None:
        self._handle()

    def do_PATCH(self) -> None:
        self._handle()

    def do_DELETE(self) -> None:
        self._handle()

    def _handle(self) -> None:
        url = urlsplit(self.path)
        query = parse_qs(url.query, keep_blank_values=True)
        body = read_body(self.rfile, self.headers)  # always read it, so the kept-alive connection stays in sync
        headers = {k.lower(): v for k, v in self.headers.items()}
        content_type, accept = self.headers.get("Content-Type"), self.headers.get("Accept")
        self.record = RequestRecord(self.command, url.path, query, content_type, accept, headers, body)
        self.server.requests.append(self.record)
        seconds, delays, answer = self.server.faults.take(
            RequestInfo(self.command, url.path, query, content_type, headers)
        )
        if delays:
            self.record.fault = ", ".join(f.label() for f in delays)
            time.sleep(seconds)
        self.trickle = (
            None
            if answer is not None
            else self.server.faults.take_trickle(RequestInfo(self.command, url.path, query, content_type, headers))
        )
        if self.trickle is not None:
            label = self.trickle.label()
            self.record.fault = f"{self.record.fault}, {label}" if self.record.fault else label
        try:
            if answer is not None:
                self._inject(answer, url.path)
            else:
                self._authorize()
                self.body = body
                self._route(url.path, query)
        except StatusError as exc:
            self._send_json(exc.code, exc.status(), exc.headers)
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
            self.close_connection = True
        except Exception as exc:  # a stand-in bug: answer 500 and keep it for the test to see
            logger.exception("kube stand-in failed on %s %s", self.command, self.path)
            self.server.internal_errors.append(f"{self.command} {self.path}: {type(exc).__name__}: {exc}")
            if self.record.status is None:
                self._send_json(500, StatusError(500, "InternalError", f"stand-in bug: {exc}").status())
            else:
                self.close_connection = True
        finally:
            self.record.finished = time.monotonic()

    def _inject(self, fault: Fault, path: str) -> None:
        answer_fault(self, fault, path)

    def _authorize(self) -> None:
        if self.server.token is not None and self.headers.get("Authorization") != f"Bearer {self.server.token}":
            raise StatusError(401, "Unauthorized", "Unauthorized")

    def _send_bytes(self, code: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.record.status = code
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache, private")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        trickle = getattr(self, "trickle", None)
        if trickle is None:
            self.wfile.write(data)
            return
        for start in range(0, len(data), trickle.piece):
            self.wfile.write(data[start : start + trickle.piece])
            self.wfile.flush()
            time.sleep(trickle.seconds)

    def _send_json(self, code: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        # Exactly "application/json": lightkube only maps errors to ApiError for that Content-Type.
        self._send_bytes(code, json.dumps(payload, separators=(",", ":")).encode(), "application/json", headers)

    # ------------------------------------------------------------ routing

    def _route(self, path: str, query: Query) -> None:
        """The verbs the product uses: GET (one node), LIST (paginated), WATCH, merge PATCH; discovery for kubectl."""
        path = path.rstrip("/") or "/"
        if path in ("/healthz", "/livez", "/readyz"):
            self._send_bytes(200, b"ok", "text/plain; charset=utf-8")
            return
        host, port = self.server.server_address[:2]
        document = discovery.document(path, f"{host!s}:{port}")
        if document is not None:
            if self.command != "GET":
                raise errors.method_not_allowed(self.command)
            self._send_json(200, document)
            return
        target = parse_resource_path(path)
        if target is None:
            raise StatusError(404, "NotFound", "the server could not find the requested resource")
        method, name = self.command, target.name
        if method == "GET" and (target.legacy_watch or first(query, "watch") in ("1", "true")):
            self._watch(target, query)
        elif method == "GET" and name is None:
            self._list(target, query)
        elif method == "GET" and name is not None and target.subresource == "log":
            self._log(target, name)
        elif method == "GET" and name is not None:
            self._get(target, name, query)
        elif method == "POST" and name is None and target.rt.namespaced:
            created = json.loads(self.body or b"{}")
            if not isinstance(created, dict):
                raise errors.bad_request("the object is not a JSON object")
            created.setdefault("metadata", {})["namespace"] = target.namespace
            self._send_json(201, self.server.store.create(target.rt, created))
        elif method == "DELETE" and name is not None and target.subresource is None and target.rt.namespaced:
            self._send_json(200, self.server.store.delete(target.rt, name, target.namespace))
        elif method == "PATCH" and name is not None and target.subresource is None:
            content_type, body = self.headers.get("Content-Type"), self.body

            def patch(current: Obj) -> Obj:
                return apply_patch(content_type, current, body)

            self._send_json(200, self.server.store.update(target.rt, target.namespace, name, patch))
        else:
            raise errors.method_not_allowed(method)

    # ------------------------------------------------------------ reads

    def _get(self, target: Target, name: str, query: Query) -> None:
        obj = self.server.store.get(target.rt, name, target.namespace)
        if obj is None:
            raise errors.not_found(target.rt, name)
        if wants_table(target.rt, self.headers.get("Accept")):
            meta = {"resourceVersion": obj["metadata"]["resourceVersion"]}
            self._send_json(200, table(target.rt, [obj], meta, first(query, "includeObject")))
        else:
            self._send_json(200, obj)

    def _log(self, target: Target, name: str) -> None:
        if self.server.store.get(target.rt, name, target.namespace) is None:
            raise errors.not_found(target.rt, name)
        text = self.server.store.logs.get((target.namespace or "", name), "")
        self._send_bytes(200, text.encode(), "text/plain")

    def _list(self, target: Target, query: Query) -> None:
        labels = label_selector(query)
        limit, token = int_param(query, "limit"), first(query, "continue")
        page = self.server.store.page(target.rt, target.namespace, labels, limit=limit, continue_token=token)
        meta: Obj = {"resourceVersion": page.resource_version}
        if page.continue_token:
            meta["continue"] = page.continue_token
        if page.remaining is not None:
            meta["remainingItemCount"] = page.remaining
        rt = target.rt
        if wants_table(rt, self.headers.get("Accept")):
            self._send_json(200, table(rt, page.items, meta, first(query, "includeObject")))
            return
        listing = {"kind": rt.list_kind, "apiVersion": rt.api_version, "metadata": meta}
        self._send_json(200, {**listing, "items": [_for_list(i) for i in page.items]})

    def _watch(self, target: Target, query: Query) -> None:
        plan = plan_watch(self.server.store, target, query)
        self.record.status = 200
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("Cache-Control", "no-cache, private")
        self.end_headers()
        stream_events(plan, self.server.store, self.wfile.write)
