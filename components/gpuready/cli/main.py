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

from gpuready.ci_report import CI_FORMATS
from gpuready.cli import habits
from gpuready.cli.convention_flags import add_flags as add_convention_flags
from gpuready.cli.exit_codes import EXIT_BROKEN_PIPE, EXIT_INVALID, EXIT_OUTPUT_FAILED
from gpuready.cli.new_flags import add_parser as add_new_parser
from gpuready.cli.smoke_flags import add_smoke_arguments

DEFAULT_TIMEOUTS = {"check": 120.0, "label": 600.0}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpuready",
        description="GPU node pools that are correct by construction, and the proof after deploy.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plan = commands.add_parser(
        "plan",
        help="run a stack program offline under Pulumi's mock runtime and show what it would create",
        description="Run the Pulumi program offline (no Pulumi CLI, no credentials) and print its plan.",
    )
    source = plan.add_mutually_exclusive_group()
    source.add_argument("--stack", metavar="NAME", help="plan stacks/Pulumi.NAME.yaml of the project")
    source.add_argument("--config", metavar="FILE", help="plan a stack config file in Pulumi.<stack>.yaml format")
    plan.add_argument(
        "--project-dir", metavar="DIR", default=None, help="directory holding Pulumi.yaml (default: search upwards)"
    )
    plan.add_argument("--program", metavar="DIR", default=None, help="plan another Pulumi Python project directory")
    plan.add_argument("--stack-name", metavar="NAME", default=None, help="stack name to use with --config")
    plan.add_argument(
        "--set", metavar="KEY=VALUE", action="append", default=[],
        help="override one config value (text; a JSON array or object for list and mapping keys)",
    )  # fmt: skip
    plan.add_argument(
        "--set-path", metavar="KEY[0]=VALUE", action="append", default=[],
        help="set one item of a list or mapping config value (pulumi config set --path syntax), after --set",
    )  # fmt: skip
    plan.add_argument("--debug", action="store_true", help="show the whole traceback when the program fails")
    plan.add_argument(
        "--output", "-o", choices=("table", "json", *CI_FORMATS), default="table",
        help="output format; sarif, junit and github (workflow annotations) report the policy violations for CI",
    )  # fmt: skip
    plan.add_argument("--preview", action="store_true", help="run as a preview (unknown outputs stay unknown)")
    plan.add_argument("--no-policy", action="store_true", help="skip the GPU conventions policy gate")
    plan.add_argument(
        "--policy-config", metavar="FILE", help="per-policy config JSON (the format of pulumi --policy-pack-config)"
    )
    check = commands.add_parser(
        "check",
        help="audit the cluster's GPU nodes: taints, labels, advertised GPUs, sharing, MIG",
        description="List GPU nodes (found even without labels) and print findings with suggested fixes.",
    )
    check.add_argument("--strict", action="store_true", help="exit 1 when there are findings")
    check.add_argument(
        "--fail-on", choices=("error", "warning"), default=None,
        help="exit 1 when there are findings of this severity or worse (--strict: any finding)",
    )  # fmt: skip
    check.add_argument("--output", "-o", choices=("table", "json"), default="table", help="output format")
    label = commands.add_parser(
        "label",
        help="add the missing gpuready/SkyPilot accelerator labels to GPU nodes (one PATCH per node, no pods)",
        description="Plan the missing accelerator labels (from GFD, cloud labels or the instance type); --yes applies.",
    )
    mode = label.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="only show the plan")
    mode.add_argument("--yes", "-y", action="store_true", help="apply the plan")
    verify = commands.add_parser(
        "verify",
        help="wait until a stack's GPU pools (or selected nodes) converge, then report",
        description="Watch the nodes until every one matches its pool, or the timeout passes (exit 1).",
    )
    target = verify.add_mutually_exclusive_group(required=True)
    target.add_argument("--stack", metavar="NAME", help="verify the pools of stacks/Pulumi.NAME.yaml")
    target.add_argument(
        "--config", metavar="FILE", help="verify the pools of a stack config file (Pulumi.<stack>.yaml) of any program"
    )
    verify.add_argument(
        "--project-dir", metavar="DIR", default=None, help="directory holding Pulumi.yaml (default: search upwards)"
    )
    verify.add_argument("--timeout", metavar="S", type=float, default=600.0, help="seconds to wait (default 600)")
    verify.add_argument("--output", "-o", choices=("table", "json"), default="table", help="output format")
    add_smoke_arguments(verify)
    diff = commands.add_parser(
        "diff",
        help="compare two plans (gpuready plan -o json): create/update/replace/delete and the GPU capacity at risk",
        description="Classify each resource's change with the replacement tables and compare each GPU pool's "
        "schedulable capacity; exit 1 when GPU capacity is at risk, unless --allow-capacity-loss.",
    )
    diff.add_argument("old", metavar="OLD.json", help="the plan before the change")
    diff.add_argument("new", metavar="NEW.json", help="the plan after the change")
    diff.add_argument(
        "--allow-capacity-loss", "--allow-replace", dest="allow_replace", action="store_true",
        help="exit 0 even when GPU capacity is at risk (a GPU pool replaced, deleted or reduced)",
    )  # fmt: skip
    diff.add_argument(
        "--force", action="store_true",
        help="compare plans of different stacks, projects or plan formats (a warning instead of exit 2)",
    )  # fmt: skip
    diff.add_argument(
        "--output", "-o", choices=("table", "json", *CI_FORMATS), default="table",
        help="output format; sarif, junit and github (workflow annotations) for CI",
    )  # fmt: skip
    matrix = commands.add_parser(
        "support-matrix",
        help="print the GPU stack support matrix: cloud x provisioner x image x driver x stack x sharing",
        description="Print the support matrix, or write/check the generated block of a Markdown file.",
    )
    where = matrix.add_mutually_exclusive_group()
    where.add_argument("--write", metavar="FILE", help="replace the generated block of FILE (e.g. README.md)")
    where.add_argument("--check", metavar="FILE", help="exit 1 when FILE's generated block is stale")
    add_new_parser(commands)
    for command in (check, label):
        default = DEFAULT_TIMEOUTS[command.prog.split()[-1]]
        command.add_argument(
            "--timeout", metavar="S", type=float, default=default,
            help=f"deadline in seconds for every request, retry and wait (default {default:g})",
        )  # fmt: skip
    for command in (check, verify):
        add_convention_flags(command)
    for command, selector in ((check, check), (label, label), (verify, target)):
        selector.add_argument("--selector", "-l", metavar="SELECTOR", default="", help="label selector for nodes")
        command.add_argument("--kubeconfig", metavar="FILE", default=None, help="kubeconfig file (default: as kubectl)")
        command.add_argument(
            "--context", metavar="NAME", action="append", default=None,
            help="kubeconfig context to use" + ("" if command is label else "; repeat it for several clusters at once"),
        )  # fmt: skip
    habits.extend(parser)
    return parser


def main(argv: Sequence[str] | None = None, *, exiting: bool = False) -> int:
    """Run the CLI and return its exit code.

    ``exiting``: the process ends right after (the console script), so large results need not be freed first.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
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
