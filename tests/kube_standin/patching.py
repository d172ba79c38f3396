"""PATCH bodies: JSON merge patch (RFC 7386) only, the one patch type the product sends (node labels).

Any other patch Content-Type (JSON patch, strategic merge patch, apply) gets 415, as a server that does not support
it would answer, so a product change that starts sending one fails loudly in its tests.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .errors import bad_request, unsupported_media_type
from .resources import Obj

MERGE_PATCH = "application/merge-patch+json"


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, null deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def apply_patch(content_type: str | None, original: Obj, body: bytes) -> Obj:
    """Apply a merge-patch body; 415 for any other patch type, 400 for a body that is not a JSON object."""
    mime = media_type(content_type)
    if mime != MERGE_PATCH:
        raise unsupported_media_type(mime, [MERGE_PATCH])
    try:
        patch = json.loads(body or b"null")
    except ValueError as exc:
        raise bad_request(f"error decoding patch: {exc}") from exc
    if not isinstance(patch, dict):
        raise bad_request("merge patch must be a JSON object")
    result: Obj = merge_patch(original, patch)
    return result
