"""The one exception hierarchy of gpuready.

Every error a user can cause says where (a field path), what (the bad value), what is allowed, and how
to fix it. Errors are raised before any resource is registered or any API is called.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gpuready.record import record

MAX_SHOWN = 80
"""Characters of a bad value an error message shows; longer values are cut with a note of their length."""


def shown(value: object, limit: int = MAX_SHOWN) -> str:
    """``repr(value)`` cut to ``limit`` characters: ``'aaaa...' (1,048,576 characters)``."""
    text = repr(value)
    if len(text) <= limit:
        return text
    size = f"{len(value):,} characters" if isinstance(value, str) else f"{len(text):,} characters written out"
    return f"{text[: limit - 3]}... ({size})"


MAX_MESSAGE = 4000
"""Characters of a message from outside (a server, a plugin, a cluster error) echoed to the terminal."""
MAX_PROBLEMS_SHOWN = 20
"""Problems an error lists one by one; the rest are counted."""
MAX_ALLOWED_SHOWN = 30
"""Allowed values a problem lists; the rest are counted."""


def printable(text: str) -> str:
    """``text`` with every control character except newline and tab escaped (``\\x1b``): nothing read from a
    config, a server or a plugin can move the cursor, recolour or retitle the terminal."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c in "\n\t" else repr(c)[1:-1] for c in text)


def bounded_text(text: str, limit: int = MAX_MESSAGE) -> str:
    """``printable(text)`` cut to ``limit`` characters, with a note of how much was left out."""
    safe = printable(text)
    if len(safe) <= limit:
        return safe
    return f"{safe[:limit]}... ({len(safe) - limit:,} more characters)"


def kind_of(value: object) -> str:
    """``a mapping``, ``a list``, ``a str``...: what was given, for errors that must not show the value itself."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


class GpuReadyError(Exception):
    """Base class of every error gpuready raises on purpose."""


@record(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input: where, what, what is allowed, and a hint."""

    path: str
    """Field path, e.g. ``nodePools[1].instanceType``."""
    problem: str
    """What is wrong, in a few words."""
    value: object = None
    """The bad value as given (``None`` when the field is missing)."""
    allowed: Sequence[str] = ()
    """Allowed values, when the set is small enough to list."""
    hint: str = ""
    """What to do about it."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "allowed", tuple(self.allowed))

    def __str__(self) -> str:
        text = f"{self.path}: {self.problem}"
        if self.value is not None:
            text += f"; got {shown(self.value)}"
        if self.allowed:
            listed = ", ".join(printable(a) for a in self.allowed[:MAX_ALLOWED_SHOWN])
            more = len(self.allowed) - MAX_ALLOWED_SHOWN
            text += f". Allowed: {listed}" + (f" (and {more:,} more)" if more > 0 else "")
        if self.hint:
            text += f". Hint: {self.hint}"
        return printable(text)


class SpecError(GpuReadyError, ValueError):
    """One or more problems with a pool spec or a stack config.

    Carries every problem found, so a user fixes them all in one go.
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("SpecError needs at least one problem")
        super().__init__(self._render())

    def _render(self) -> str:
        if len(self.problems) == 1:
            return str(self.problems[0])
        lines = [f"{len(self.problems)} problems:"]
        lines.extend(f"  - {p}" for p in self.problems[:MAX_PROBLEMS_SHOWN])
        if len(self.problems) > MAX_PROBLEMS_SHOWN:
            lines.append(f"  - ... and {len(self.problems) - MAX_PROBLEMS_SHOWN:,} more problems like these")
        return "\n".join(lines)

    @classmethod
    def one(
        cls,
        path: str,
        problem: str,
        value: object = None,
        allowed: Sequence[str] = (),
        hint: str = "",
    ) -> SpecError:
        """Build an error holding a single problem."""
        return cls([Problem(path, problem, value, tuple(allowed), hint)])

    def under(self, prefix: str) -> SpecError:
        """The same problems with their paths placed under ``prefix``."""
        return SpecError(Problem(_join(prefix, p.path), p.problem, p.value, p.allowed, p.hint) for p in self.problems)


class UnknownGpuModelError(SpecError):
    """A GPU model or instance type that the catalog does not know."""


class ConfigError(SpecError):
    """A stack configuration that cannot be turned into pool specs."""


class RegistrationError(GpuReadyError):
    """A plug-in's registration entry that lacks a part (raised when the entry is made, at import)."""


def _join(prefix: str, path: str) -> str:
    if not prefix:
        return path
    if not path or path.startswith("["):
        return f"{prefix}{path}"
    return f"{prefix}.{path}"
