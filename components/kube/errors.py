"""Errors talking to a cluster. All are ``GpuReadyError``s; the CLI maps them to exit code 2."""

from __future__ import annotations

from components.errors import GpuReadyError

RBAC_HINT = (
    "grant it with deploy/rbac/check.yaml (get/list/watch nodes) or deploy/rbac/label.yaml (adds patch nodes); "
    "see deploy/rbac/README.md"
)


class KubeError(GpuReadyError):
    """The cluster could not be used."""


class KubeConfigError(KubeError):
    """No usable kubeconfig, context or credentials."""


class KubeUnreachableError(KubeError):
    """The API server did not answer (refused, timed out, dropped) even after retries."""


class KubeAuthError(KubeError):
    """401 or 403: the credentials are rejected or lack a permission. Never retried."""

    def __init__(self, message: str, status: int) -> None:
        self.status = status
        super().__init__(message)


class KubeApiError(KubeError):
    """Any other error status, e.g. 400 for a malformed label selector, or retries exhausted on 429/5xx."""

    def __init__(self, message: str, status: int, reason: str = "") -> None:
        self.status = status
        self.reason = reason
        super().__init__(message)


class ExpiredError(KubeError):
    """410 Gone: the resourceVersion or continue token is too old (compacted away); list again."""
