"""A Kubernetes API server stand-in served over real HTTP on 127.0.0.1, for tests of cluster-facing code.

    with KubeStandin.start(seed=[make_node("gpu-1")]) as kube:
        kube.write_kubeconfig(tmp_path / "kubeconfig")
        ...

Standalone: python -m tests.kube_standin.server --port 8080 --seed nodes.json --kubeconfig out.yaml
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import FrameType, TracebackType

import yaml

from .faults import Faults
from .handler import StandinHTTPServer
from .objects import make_namespace
from .requestlog import RequestLog
from .resources import Obj
from .store import Store, seed

DEFAULT_NAMESPACES = ("default", "kube-system", "kube-public", "kube-node-lease")


class KubeStandin:
    """One running stand-in. Create it with `KubeStandin.start(...)`; stop it with `.stop()` or `with`."""

    def __init__(
        self,
        port: int = 0,
        seed_objects: Iterable[Obj] = (),
        *,
        token: str | None = None,
        namespaces: Sequence[str] = DEFAULT_NAMESPACES,
        history: int = 10_000,
    ) -> None:
        self.store = Store(history)
        self.requests = RequestLog()
        self.faults = Faults()
        seed(self.store, [make_namespace(ns) for ns in namespaces])
        seed(self.store, seed_objects)
        self._server = StandinHTTPServer(port, self.store, self.requests, self.faults, token)
        self._thread: threading.Thread | None = None

    @classmethod
    def start(
        cls,
        port: int = 0,
        seed: Iterable[Obj] | None = None,
        *,
        token: str | None = None,
        namespaces: Sequence[str] = DEFAULT_NAMESPACES,
        history: int = 10_000,
    ) -> KubeStandin:
        """Serve on 127.0.0.1:`port` (0 picks a free port).

        `token`: requests must carry this bearer token (default: any or none is accepted).
        `namespaces`: created up front. `history`: watch events kept; older resourceVersions get 410 Gone."""
        instance = cls(port, seed or (), token=token, namespaces=namespaces, history=history)
        instance._thread = threading.Thread(
            target=instance._server.serve_forever, kwargs={"poll_interval": 0.02}, name="kube-standin", daemon=True
        )
        instance._thread.start()
        return instance

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def internal_errors(self) -> list[str]:
        """Stand-in bugs (unexpected exceptions answered with 500); tests may assert this stays empty."""
        return list(self._server.internal_errors)

    def stop(self) -> None:
        """Stop serving, end open watches and close kept-alive connections."""
        self.store.close()
        if self._thread is not None:
            self._server.shutdown()
            self._thread.join(timeout=5)
            self._thread = None
        self._server.close_connections()
        self._server.server_close()

    def __enter__(self) -> KubeStandin:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def kubeconfig(self, context: str = "standin", token: str = "test-token", namespace: str = "default") -> Obj:
        return {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [{"name": context, "cluster": {"server": self.url}}],
            "users": [{"name": context, "user": {"token": token}}],
            "contexts": [{"name": context, "context": {"cluster": context, "user": context, "namespace": namespace}}],
            "current-context": context,
            "preferences": {},
        }

    def write_kubeconfig(
        self, path: str | Path, context: str = "standin", token: str = "test-token", namespace: str = "default"
    ) -> Path:
        """Write a kubeconfig whose current context points at this server with a token user."""
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(yaml.safe_dump(self.kubeconfig(context, token, namespace), sort_keys=False))
        target.chmod(0o600)
        return target


def load_seed_file(path: str | Path) -> list[Obj]:
    """Objects from a JSON or YAML file: one object, a list, a v1 List, or several YAML documents."""
    text = Path(path).read_text()
    documents: list[object]
    if str(path).endswith(".json"):
        documents = [json.loads(text)]
    else:
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    objects: list[Obj] = []
    for doc in documents:
        if isinstance(doc, list):
            objects.extend(o for o in doc if isinstance(o, dict))
        elif isinstance(doc, dict):
            objects.append(doc)
        else:
            raise ValueError(f"{path}: expected objects, found {type(doc).__name__}")
    return objects


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.kube_standin.server", description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 (0 picks one)")
    parser.add_argument("--seed", action="append", default=[], help="JSON/YAML file of objects; repeatable")
    parser.add_argument("--kubeconfig", help="write a kubeconfig pointing at the server here")
    parser.add_argument("--token", default="test-token", help="token written to the kubeconfig")
    parser.add_argument("--require-token", action="store_true", help="reject requests without that token")
    args = parser.parse_args(argv)
    objects = [obj for path in args.seed for obj in load_seed_file(path)]
    kube = KubeStandin.start(args.port, objects, token=args.token if args.require_token else None)
    stopped = threading.Event()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        stopped.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if args.kubeconfig:
        kube.write_kubeconfig(args.kubeconfig, token=args.token)
        print(f"kubeconfig written to {args.kubeconfig}", flush=True)
    print(f"kube stand-in serving on {kube.url} ({len(objects)} seed objects); Ctrl-C to stop", flush=True)
    try:
        stopped.wait()
    finally:
        kube.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
