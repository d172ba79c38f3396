"""What is printed of text that may hold credentials: a server's messages, a plugin's stderr, a server URL.

A server may quote a token back ("invalid bearer token ..."), a plugin may print one on stderr, and a kubeconfig's
``server`` may carry ``user:password@``. Everything gpuready prints from those sources goes through here first:
userinfo in URLs is replaced by ``***``, and token-like strings (``Bearer x``, JWTs, EKS tokens, ``password=x``
pairs and any long unbroken run of token characters) by ``<redacted>``; then control characters are escaped and the
text is bounded (``gpuready.errors.bounded_text``).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit, urlunsplit

from gpuready.errors import bounded_text

REDACTED = "<redacted>"
_PATTERNS = (
    re.compile(r"(?i)\b(bearer|basic)\s+[^\s\"',;]+"),
    re.compile(r"\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*"),  # a JWT (service-account and OIDC tokens)
    re.compile(r"\bk8s-aws-v1\.[\w-]+"),  # an EKS token
    re.compile(
        r"(?i)\b(token|password|passwd|secret|api[_-]?key|client[_-]?key|credential)s?(\"?\s*[:=]\s*\"?)[^\s\"',;]+"
    ),
    re.compile(r"[A-Za-z0-9+/_-]{32,}={0,2}"),  # any long opaque run: a static token, a key, a hex secret
    re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/@\s]+@"),  # userinfo in a URL
)


def _replace(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.lower().startswith(("bearer", "basic")):
        return f"{match.group(1)} {REDACTED}"
    if "://" in text:
        return f"{match.group(1)}***@"
    if match.lastindex and match.lastindex >= 2 and match.re.pattern.startswith("(?i)\\b(token"):
        return f"{match.group(1)}{match.group(2)}{REDACTED}"
    return REDACTED


def scrub(text: str) -> str:
    """``text`` with token-like strings and URL userinfo redacted, control characters escaped, size bounded."""
    for pattern in _PATTERNS:
        text = pattern.sub(_replace, text)
    return bounded_text(text)


def redact_url(url: str) -> str:
    """``url`` without its ``user:password@`` (``https://***@host``), for messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return scrub(url)
    if "@" not in parts.netloc:
        return bounded_text(url)
    host = parts.netloc.rsplit("@", 1)[1]
    return bounded_text(urlunsplit(parts._replace(netloc=f"***@{host}")))
