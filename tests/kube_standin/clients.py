"""Typed shims over the official client's untyped corners, shared by the contract tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kubernetes import config, watch
from kubernetes.client.exceptions import ApiException


def official_api_client(kubeconfig: Path) -> Any:
    """An ApiClient for this kubeconfig, without touching the process-wide default configuration."""
    return config.new_client_from_config(config_file=str(kubeconfig))  # type: ignore[no-untyped-call]


def new_watch() -> Any:
    return watch.Watch()  # type: ignore[no-untyped-call]


def status_body(exc: ApiException) -> dict[str, Any]:
    """The Status object an ApiException carries."""
    assert exc.body is not None
    body = json.loads(exc.body)
    assert isinstance(body, dict)
    return body


def header(exc: ApiException, name: str) -> str | None:
    assert exc.headers is not None
    value = exc.headers.get(name)
    return None if value is None else str(value)
