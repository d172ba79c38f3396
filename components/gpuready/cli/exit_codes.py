"""The exit codes of every ``gpuready`` command, in one place (docs/plan.md "Error contract" tabulates them)."""

from __future__ import annotations

EXIT_OK = 0
EXIT_VIOLATIONS = 1
"""A result that fails the gate: mandatory policy violations (``plan``), findings with ``--strict`` (``check``),
not converged by the deadline (``verify``), GPU capacity at risk (``diff``), a stale generated block
(``support-matrix --check``)."""
EXIT_INVALID = 2
"""Invalid input, credentials, RBAC, an unreachable or misbehaving cluster: nothing was decided."""
EXIT_PROGRAM_FAILED = 3
"""``plan``: the Pulumi program itself raised (not gpuready's refusal of its input, which is 2)."""
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as a shell reports a process ended by Ctrl-C. The command stops at its next safe point and prints
the same summary as at its deadline (``label``: ``labeled N of M; not done: ...``; ``verify``: the findings so
far)."""
EXIT_TERMINATED = 143
"""128 + SIGTERM (CI cancellation, ``timeout``, a Kubernetes Job being stopped): as for SIGINT, the summary so far,
then this code."""
EXIT_BROKEN_PIPE = 141
"""128 + SIGPIPE, as a shell reports a writer whose reader went away."""
EXIT_OUTPUT_FAILED = EXIT_INVALID
"""stdout or a file output could not be written (full disk: ENOSPC, /dev/full, a closed descriptor: EBADF): one
``error:`` line on stderr, never a traceback and never 1, which would read as "violations found"."""
