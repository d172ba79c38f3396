"""``gpuready``'s argument parser: a run defines the command it runs, and only that one.

A run of ``gpuready plan`` parses ``plan``'s arguments only; defining every command's (about 80 ``add_argument``
calls, about 26 M instructions) and a sub-parser for each of the others (about 5 M more) cost each run more than
the command's own parsing. What a run of one command can print is the same either way: its own ``--help`` and
errors, and the top level's usage line (``COMMAND ...``, which lists no command). ``build_parser()`` with no
command builds them all: ``--help`` before a command (the list of commands), a misspelt command (refused with the
list), ``gpuready completion`` and the tests. Each command's arguments are added in one function of ``COMMANDS``, in
the order its ``--help`` shows them. Standard library only: the CLI starts fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from gpuready.cli import habits

DEFAULT_TIMEOUTS = {"check": 120.0, "label": 600.0}
HELP_OPTIONS = frozenset({"-h", "--help"})


def _plan(plan: argparse.ArgumentParser) -> None:
    from gpuready.ci_report import CI_FORMATS  # noqa: PLC0415 - only for the commands that report to CI

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


def _check(check: argparse.ArgumentParser) -> None:
    check.add_argument("--strict", action="store_true", help="exit 1 when there are findings")
    check.add_argument(
        "--fail-on", choices=("error", "warning"), default=None,
        help="exit 1 when there are findings of this severity or worse (--strict: any finding)",
    )  # fmt: skip
    check.add_argument("--output", "-o", choices=("table", "json"), default="table", help="output format")
    _timeout(check, "check")
    _conventions(check)
    _cluster(check, check, several=True)


def _label(label: argparse.ArgumentParser) -> None:
    mode = label.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="only show the plan")
    mode.add_argument("--yes", "-y", action="store_true", help="apply the plan")
    _timeout(label, "label")
    _cluster(label, label, several=False)


def _verify(verify: argparse.ArgumentParser) -> None:
    from gpuready.cli.smoke_flags import add_smoke_arguments  # noqa: PLC0415 - only verify takes them

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
    _conventions(verify)
    _cluster(verify, target, several=True)


def _diff(diff: argparse.ArgumentParser) -> None:
    from gpuready.ci_report import CI_FORMATS  # noqa: PLC0415 - only for the commands that report to CI

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


def _support_matrix(matrix: argparse.ArgumentParser) -> None:
    where = matrix.add_mutually_exclusive_group()
    where.add_argument("--write", metavar="FILE", help="replace the generated block of FILE (e.g. README.md)")
    where.add_argument("--check", metavar="FILE", help="exit 1 when FILE's generated block is stale")


def _new(new: argparse.ArgumentParser) -> None:
    from gpuready.cli.new_flags import add_arguments  # noqa: PLC0415 - only new takes them

    add_arguments(new)


def _timeout(command: argparse.ArgumentParser, name: str) -> None:
    default = DEFAULT_TIMEOUTS[name]
    command.add_argument(
        "--timeout", metavar="S", type=float, default=default,
        help=f"deadline in seconds for every request, retry and wait (default {default:g})",
    )  # fmt: skip


def _conventions(command: argparse.ArgumentParser) -> None:
    from gpuready.cli.convention_flags import add_flags  # noqa: PLC0415 - only the commands that audit nodes

    add_flags(command)


def _cluster(command: argparse.ArgumentParser, selector: argparse._ActionsContainer, *, several: bool) -> None:
    selector.add_argument("--selector", "-l", metavar="SELECTOR", default="", help="label selector for nodes")
    command.add_argument("--kubeconfig", metavar="FILE", default=None, help="kubeconfig file (default: as kubectl)")
    command.add_argument(
        "--context", metavar="NAME", action="append", default=None,
        help="kubeconfig context to use" + ("; repeat it for several clusters at once" if several else ""),
    )  # fmt: skip


COMMANDS: dict[str, tuple[str, str, Callable[[argparse.ArgumentParser], None]]] = {
    "plan": (
        "run a stack program offline under Pulumi's mock runtime and show what it would create",
        "Run the Pulumi program offline (no Pulumi CLI, no credentials) and print its plan.",
        _plan,
    ),
    "check": (
        "audit the cluster's GPU nodes: taints, labels, advertised GPUs, sharing, MIG",
        "List GPU nodes (found even without labels) and print findings with suggested fixes.",
        _check,
    ),
    "label": (
        "add the missing gpuready/SkyPilot accelerator labels to GPU nodes (one PATCH per node, no pods)",
        "Plan the missing accelerator labels (from GFD, cloud labels or the instance type); --yes applies.",
        _label,
    ),
    "verify": (
        "wait until a stack's GPU pools (or selected nodes) converge, then report",
        "Watch the nodes until every one matches its pool, or the timeout passes (exit 1).",
        _verify,
    ),
    "diff": (
        "compare two plans (gpuready plan -o json): create/update/replace/delete and the GPU capacity at risk",
        "Classify each resource's change with the replacement tables and compare each GPU pool's "
        "schedulable capacity; exit 1 when GPU capacity is at risk, unless --allow-capacity-loss.",
        _diff,
    ),
    "support-matrix": (
        "print the GPU stack support matrix: cloud x provisioner x image x driver x stack x sharing",
        "Print the support matrix, or write/check the generated block of a Markdown file.",
        _support_matrix,
    ),
    "new": (
        "create a Pulumi project of your own that depends on gpuready and plans offline at once",
        "Write Pulumi.yaml, requirements.txt, __main__.py, Pulumi.<stack>.yaml with one example GPU pool, "
        ".gitignore and a GitHub Actions workflow (plan + diff) into DIR.",
        _new,
    ),
}
"""Each command: its help line, its ``--help`` description, and the function that adds its arguments."""


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs: its first word that is not an option (the top level's options take no value);
    None when a ``--help`` comes first (the top level's help lists every command)."""
    for word in argv:
        if word in HELP_OPTIONS:
            return None
        if not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``command`` alone, or of every command if None (or if ``command`` is none of them, e.g. a
    misspelling argparse is to refuse, or ``completion``)."""
    parser = argparse.ArgumentParser(
        prog="gpuready",
        description="GPU node pools that are correct by construction, and the proof after deploy.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    every = command not in COMMANDS
    defined = []
    for name, (help_line, description, define) in COMMANDS.items():
        if every or name == command:
            define(commands.add_parser(name, help=help_line, description=description))
            defined.append(name)
    habits.extend(parser, defined, every=every)
    return parser
