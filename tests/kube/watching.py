"""Test helper: act on the API stand-in once a client has opened a watch, so the change arrives as an event."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from tests.kube_standin import KubeStandin


def when_watching(kube: KubeStandin, action: Callable[[], object]) -> threading.Thread:
    """Run ``action`` in a thread once a watch on nodes is open (or after 10 s); the caller joins the thread."""

    def run() -> None:
        deadline = time.monotonic() + 10
        while not kube.requests.find("GET", "/api/v1/nodes", watch=True) and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.05)
        action()

    thread = threading.Thread(target=run)
    thread.start()
    return thread
