"""Did-you-mean suggestions that are only made when they are close. Pure.

Close means equal ignoring case (``Spot`` -> ``spot``, ``binPackScheduler`` -> ``binpackScheduler``), or at most
one edit for short words and two for longer ones, counting a swap of neighbours as one edit
(``minSzie`` -> ``minSize``), or the start of just one choice (``timeout`` -> ``timeoutSeconds``);
``diskSize`` is three edits from ``minSize`` and gets no suggestion.
"""

from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice ``word`` most likely meant, or None when no choice is close."""
    options = [c for c in choices if c != word]
    lowered = word.lower()
    for choice in options:
        if choice.lower() == lowered:
            return choice
    prefixed = [c for c in options if c.lower().startswith(lowered)]
    if len(word) >= 4 and len(prefixed) == 1:  # the start of one key: ``timeout`` -> ``timeoutSeconds``
        return prefixed[0]
    limit = 1 if len(word) <= 5 else 2
    scored = sorted((edits(lowered, c.lower()), c) for c in options)
    if scored and scored[0][0] <= limit:
        return scored[0][1]
    return None


def did_you_mean(word: object, choices: Iterable[str]) -> str:
    """``did you mean 'x'?`` or ``""``."""
    if not isinstance(word, str):
        return ""
    match = closest(word, choices)
    return f"did you mean {match!r}?" if match is not None else ""


def edits(a: str, b: str) -> int:
    """Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[i - 2][j - 2] + 1)
        rows.append(row)
    return rows[len(a)][len(b)]
