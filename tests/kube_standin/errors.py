"""apiserver-shaped failures: a `kind: Status` body with the reason and message a real apiserver uses."""

from __future__ import annotations

from .resources import Obj, ResourceType

CONFLICT_MESSAGE = "the object has been modified; please apply your changes to the latest version and try again"


class StatusError(Exception):
    """Raised anywhere in the stand-in; the HTTP layer turns it into a Status response."""

    def __init__(
        self,
        code: int,
        reason: str,
        message: str,
        details: Obj | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.message = message
        self.details = details
        self.headers = headers or {}

    def status(self) -> Obj:
        body: Obj = {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": self.message,
            "reason": self.reason,
            "code": self.code,
        }
        if self.details is not None:
            body["details"] = self.details
        return body


def _details(rt: ResourceType, name: str) -> Obj:
    details: Obj = {"name": name, "kind": rt.plural}
    if rt.group:
        details["group"] = rt.group
    return details


def _qualified(rt: ResourceType) -> str:
    return f"{rt.plural}.{rt.group}" if rt.group else rt.plural


def not_found(rt: ResourceType, name: str) -> StatusError:
    return StatusError(404, "NotFound", f'{_qualified(rt)} "{name}" not found', _details(rt, name))


def already_exists(rt: ResourceType, name: str) -> StatusError:
    return StatusError(409, "AlreadyExists", f'{_qualified(rt)} "{name}" already exists', _details(rt, name))


def conflict(rt: ResourceType, name: str, why: str = CONFLICT_MESSAGE) -> StatusError:
    message = f'Operation cannot be fulfilled on {_qualified(rt)} "{name}": {why}'
    return StatusError(409, "Conflict", message, _details(rt, name))


def bad_request(message: str) -> StatusError:
    return StatusError(400, "BadRequest", message)


def gone(message: str) -> StatusError:
    return StatusError(410, "Expired", message)


def method_not_allowed(method: str) -> StatusError:
    return StatusError(
        405, "MethodNotAllowed", f"the server does not allow this method on the requested resource ({method})"
    )


def unsupported_media_type(content_type: str, accepted: list[str]) -> StatusError:
    message = (
        f"the body of the request was in an unknown format ({content_type or 'none'}) - "
        f"accepted media types include: {', '.join(accepted)}"
    )
    return StatusError(415, "UnsupportedMediaType", message)


def invalid(rt: ResourceType, name: str, causes: list[tuple[str, str, str]]) -> StatusError:
    """422; each cause is (field, reason, message) with reason like FieldValueRequired."""
    joined = ", ".join(f"{field}: {message}" for field, _, message in causes)
    if len(causes) > 1:
        joined = f"[{joined}]"
    details: Obj = {
        "name": name,
        "kind": rt.kind,
        "causes": [{"reason": r, "message": m, "field": f} for f, r, m in causes],
    }
    if rt.group:
        details["group"] = rt.group
    return StatusError(422, "Invalid", f'{rt.kind} "{name}" is invalid: {joined}', details)


def for_status_code(code: int, message: str | None = None, retry_after: int | None = None) -> StatusError:
    """An injected failure shaped the way the apiserver shapes that code."""
    reasons: dict[int, tuple[str, str]] = {
        400: ("BadRequest", "bad request"),
        401: ("Unauthorized", "Unauthorized"),
        403: ("Forbidden", "forbidden"),
        404: ("NotFound", "the server could not find the requested resource"),
        409: ("Conflict", CONFLICT_MESSAGE),
        410: ("Expired", "the resource version is too old"),
        422: ("Invalid", "the request is invalid"),
        429: ("TooManyRequests", "Too many requests, please try again later."),
        500: ("InternalError", "Internal error occurred: injected fault"),
        502: ("InternalError", "bad gateway"),
        503: ("ServiceUnavailable", "the server is currently unable to handle the request"),
        504: ("Timeout", "the server was unable to return a response in the time allotted"),
    }
    reason, default = reasons.get(code, ("Unknown", f"injected HTTP {code}"))
    details: Obj | None = None
    headers: dict[str, str] = {}
    if retry_after is not None:
        details = {"retryAfterSeconds": retry_after}
        headers["Retry-After"] = str(retry_after)
    return StatusError(code, reason, message or default, details, headers)
