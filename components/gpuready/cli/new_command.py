"""``gpuready new DIR``: a Pulumi project of one's own that depends on gpuready and runs its stack program."""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path

from gpuready.cli import error_report
from gpuready.cli.exit_codes import EXIT_INVALID, EXIT_OK
from gpuready.core.clouds.registry import cloud_profile
from gpuready.errors import GpuReadyError
from gpuready.new_project.flags import WIRING_FLAGS
from gpuready.new_project.scaffold import NewProject, project_files


def run(args: argparse.Namespace) -> int:
    target = Path(args.directory)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        what = "is not a directory" if not target.is_dir() else "is not empty"
        return _refuse(f"{target} {what}; gpuready new writes into a new or empty directory only", "pick another DIR")
    requirement = args.gpuready or installed_requirement()
    if requirement is None:
        return _refuse(
            "where this gpuready was installed from is unknown",
            'pass --gpuready "gpuready @ git+REPO@TAG" (or a wheel path), as README "Install" shows',
        )
    wiring = {key: getattr(args, f"wiring_{key}") for key in WIRING_FLAGS}
    profile = cloud_profile(args.cloud)  # --cloud, resolved once
    request = NewProject(profile, args.cluster_name, args.stack, {k: v for k, v in wiring.items() if v}, requirement)
    try:
        files = project_files(request)
    except GpuReadyError as error:
        error_report.emit(error_report.input_error(error), json_output=False)
        return EXIT_INVALID
    for relative, text in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"Created {target}/ for stack {args.stack!r} ({args.cloud} cluster {args.cluster_name!r}):")
    for relative in files:
        print(f"  {relative}")
    print(f"gpuready requirement: {requirement}")
    print(f"Next: cd {target} && gpuready plan --program . --stack {args.stack}   (offline, no credentials)")
    print(f"then: pulumi stack init {args.stack} && pulumi up -s {args.stack}")
    return EXIT_OK


def installed_requirement() -> str | None:
    """The running gpuready's source as a requirement (``requirement_of`` its PEP 610 record); None when unknown."""
    try:
        dist = metadata.distribution("gpuready")
    except metadata.PackageNotFoundError:
        return None
    return requirement_of(dist.read_text("direct_url.json"), dist.version)


def requirement_of(direct_url: str | None, version: str) -> str | None:
    """A requirement line from an installed distribution's PEP 610 ``direct_url.json``: a VCS URL at its commit, a
    wheel or a directory; ``gpuready==version`` when there is no record (installed from an index); None when the
    record names no URL."""
    if direct_url is None:
        return f"gpuready=={version}"
    origin = json.loads(direct_url)
    url = str(origin.get("url", ""))
    vcs = origin.get("vcs_info")
    if url and isinstance(vcs, dict) and vcs.get("commit_id"):
        return f"gpuready @ {vcs.get('vcs', 'git')}+{url}@{vcs['commit_id']}"
    return f"gpuready @ {url}" if url else None


def _refuse(message: str, hint: str) -> int:
    print(f"error: {message}\n  hint: {hint}", file=sys.stderr)
    return EXIT_INVALID
