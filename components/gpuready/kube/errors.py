"""Errors talking to a cluster. All are ``GpuReadyError``s; the CLI maps them to exit code 2."""

from __future__ import annotations

from gpuready.errors import GpuReadyError

RBAC_HINT = (
    "grant it with deploy/rbac/check.yaml (list/watch nodes, list resourceslices.resource.k8s.io) or "
    "deploy/rbac/label.yaml (adds get/patch nodes); see deploy/rbac/README.md"
)


class KubeError(GpuReadyError):
    """The cluster could not be used."""

    transient = False
    """True when waiting and trying again may help (the server was unreachable, overloaded or answered garbage)."""


class KubeConfigError(KubeError):
    """No usable kubeconfig, context or credentials."""


class KubeUnreachableError(KubeError):
    """The API server did not answer (refused, timed out, dropped) even after retries."""

    transient = True

    def __init__(self, message: str, *, refused: bool = False) -> None:
        self.refused = refused
        """Nothing listens there (or the name does not resolve): not retried, like kubectl."""
        super().__init__(message)


class KubeAuthError(KubeError):
    """401 or 403: the credentials are rejected or lack a permission. Never retried."""

    def __init__(self, message: str, status: int) -> None:
        self.status = status
        super().__init__(message)


class KubeApiError(KubeError):
    """Any other error status, e.g. 400 for a malformed label selector, or retries exhausted on 429/5xx."""

    def __init__(self, message: str, status: int, reason: str = "", *, transient: bool = False) -> None:
        self.status = status
        self.reason = reason
        self.transient = transient
        super().__init__(message)


class ConflictError(KubeApiError):
    """409 Conflict on a PATCH conditioned on a resourceVersion: the object changed since it was read."""


class MalformedResponseError(KubeApiError):
    """A success status whose body is not the JSON asked for (truncated, invalid, HTML, wrong content type)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message, status, "MalformedResponse", transient=True)


class DeadlineError(KubeError):
    """The command's (or the verification's) deadline passed, or a wait would outlast it; nothing was retried
    past it. ``last`` is what was being retried and why."""

    def __init__(self, message: str, last: str = "") -> None:
        self.last = last
        super().__init__(message)


class ExpiredError(KubeError):
    """410 Gone: the resourceVersion or continue token is too old (compacted away); list again."""
