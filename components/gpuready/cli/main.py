"""``gpuready`` entry point: parse arguments, dispatch, map errors to exit codes.

Starts fast: only the standard library loads here; a subcommand imports what it needs when it runs.
Exit codes (``exit_codes``; docs/plan.md "Error contract"): 0 fine, 1 mandatory policy violations (or findings with
--strict / --fail-on; ``verify``: not converged by the deadline; ``diff``: GPU capacity at risk), 2 invalid input
or an unusable cluster (or an output that cannot be written), 3 the planned program itself failed, 130 SIGINT, 143
SIGTERM (after the command's summary so far), 141 stdout closed early (``| head``).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Sequence

from gpuready.cli.exit_codes import EXIT_BROKEN_PIPE, EXIT_INVALID, EXIT_OUTPUT_FAILED
from gpuready.cli.parser import build_parser, command_of


def main(argv: Sequence[str] | None = None, *, exiting: bool = False) -> int:
    """Run the CLI and return its exit code.

    ``exiting``: the process ends right after (the console script), so large results need not be freed first.
    """
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(command_of(words))
    args = parser.parse_args(words)
    args.exiting = exiting
    if args.command == "completion":  # sourced by shells at start: asks no cloud, loads nothing more
        from gpuready.cli import completion  # noqa: PLC0415 - each command loads only what it runs

        return completion.run(args, parser)
    import gpuready.plugins  # noqa: F401, PLC0415 - registers the clouds' profiles once a command runs

    if args.command == "plan":
        if args.stack is None and args.config is None:
            if args.program is None:
                return _usage_error(parser, args, "plan needs --stack NAME, --config FILE or --program DIR")
            args.stack = args.stack_name or "dev"  # a foreign program's stack file, e.g. Pulumi.dev.yaml
        from gpuready.cli import plan_command  # noqa: PLC0415 - loads the Pulumi SDK only when planning

        return plan_command.run(args)
    if args.command == "check":
        from gpuready.cli import check_command  # noqa: PLC0415 - loads the Kubernetes client only when checking

        return check_command.run(args)
    if args.command == "label":
        from gpuready.cli import label_command  # noqa: PLC0415 - each command loads only what it runs

        return label_command.run(args)
    if args.command == "verify":
        from gpuready.cli import verify_command  # noqa: PLC0415 - each command loads only what it runs

        return verify_command.run(args)
    if args.command == "diff":
        from gpuready.cli import diff_command  # noqa: PLC0415 - each command loads only what it runs

        return diff_command.run(args)
    if args.command == "support-matrix":
        from gpuready.cli import matrix_command  # noqa: PLC0415 - each command loads only what it runs

        return matrix_command.run(args)
    if args.command == "new":
        from gpuready.cli import new_command  # noqa: PLC0415 - each command loads only what it runs

        return new_command.run(args)
    raise AssertionError(f"unhandled command {args.command}")


def _usage_error(parser: argparse.ArgumentParser, args: argparse.Namespace, message: str) -> int:
    """Usage on stderr (exit 2), or with ``-o json`` the error object of the contract on stdout too."""
    if getattr(args, "output", "") != "json":
        parser.error(message)
    from gpuready.cli.error_report import INVALID_INPUT, ErrorReport, emit  # noqa: PLC0415 - only on this error

    emit(ErrorReport(INVALID_INPUT, message), json_output=True)
    return EXIT_INVALID


__all__ = ["build_parser", "entry", "main"]


def entry() -> None:
    """Console-script entry: exit without the SDK's stray event-loop messages at interpreter shutdown.

    A reader that goes away (``gpuready plan -o json | head``) ends the command quietly with 141; SIGINT and SIGTERM
    stop it with 130 and 143 after the command's own summary (``interruption``); an stdout that cannot be written
    (a full disk, ``/dev/full``, a closed descriptor) gives one ``error:`` line and 2. None is worth a traceback."""
    from gpuready.cli import interruption  # noqa: PLC0415 - standard library only

    previous = interruption.install()
    try:
        if sys.stdout is None:  # started with stdout closed (``>&-``)
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        code = main(exiting=True)
        sys.stdout.flush()
    except BrokenPipeError:
        code = EXIT_BROKEN_PIPE
    except (KeyboardInterrupt, interruption.Interrupted) as error:
        stop = interruption.as_interrupted(error)
        print(f"interrupted by {stop.name}", file=sys.stderr)
        code = stop.exit_code
    except OSError as error:
        code = _output_failed(error)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    interruption.restore(previous)
    os._exit(code)


def _output_failed(error: OSError) -> int:
    """One line for an output that could not be written (ENOSPC, EBADF, EIO...), and exit 2, not 1."""
    name = errno.errorcode.get(error.errno or 0, "") if error.errno else ""
    reason = f"{error.strerror or error} ({name})" if name else str(error)
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout = None  # nothing more to flush into a broken stdout
        print(f"error: cannot write the output: {reason}", file=sys.stderr)
    return EXIT_OUTPUT_FAILED
