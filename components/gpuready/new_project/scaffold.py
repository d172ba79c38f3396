"""The files of a new project: ``Pulumi.yaml``, ``requirements.txt``, ``__main__.py``, ``Pulumi.<stack>.yaml``,
``.gitignore`` and a GitHub Actions workflow that plans the stack and diffs it against the base branch's plan.

Pure: the stack's settings are validated by the stack program's own model (``parse_stack_settings``) before any
file is made, so a project ``gpuready new`` writes plans offline at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import yaml

from gpuready.core.stack_settings import NS, parse_stack_settings
from gpuready.errors import ConfigError, Problem
from gpuready.new_project.declarations import PROJECT_NAME, config_block
from gpuready.new_project.flags import LIST_KEYS, WIRING_FLAGS
from gpuready.new_project.templates import GITIGNORE, MAIN, workflow
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.clouds.stack_wiring import StackWiring


@record(frozen=True)
class NewProject:
    """What the person asked for: the cloud, the cluster, the stack's name, its wiring and the gpuready requirement."""

    profile: StackWiring
    """The cloud's (``--cloud``, resolved once by the command)."""
    cluster_name: str
    stack: str
    wiring: Mapping[str, str | Sequence[str]]
    requirement: str


def stack_values(request: NewProject) -> dict[str, object]:
    """The stack's ``gpuready:*`` values (keys without namespace), validated by the stack program's model.

    Raises ``ConfigError`` naming every problem: a wiring flag the cloud does not take, a flag it requires, and
    whatever the settings model refuses (with the flag that sets the key)."""
    profile = request.profile
    required = profile.settings.required_keys()
    allowed = profile.settings.stack_keys()
    problems = [
        Problem(WIRING_FLAGS[key], f"is not a {profile.title} setting", None, tuple(WIRING_FLAGS[k] for k in allowed))
        for key, value in request.wiring.items()
        if value and key not in allowed
    ]
    problems += [
        Problem(WIRING_FLAGS[key], f"is required with --cloud {profile.name}", None, (), f"pass {WIRING_FLAGS[key]}")
        for key in required
        if not request.wiring.get(key)
    ]
    if problems:
        raise ConfigError(problems)
    values: dict[str, object] = {
        "cloud": profile.name,
        "clusterName": request.cluster_name,
        **{key: list(v) if key in LIST_KEYS else v for key, v in request.wiring.items() if v and key in allowed},
        **({"gpuStack": profile.example_gpu_stack} if profile.example_gpu_stack else {}),
        "nodePools": profile.example_pool,
    }
    parse_stack_settings(values, secret_keys=())
    return values


def project_files(request: NewProject) -> dict[str, str]:
    """Relative path -> text of every file of the new project."""
    values = stack_values(request)
    pools = str(values.pop("nodePools"))
    config = {f"{NS}:{key}": value for key, value in values.items()}
    stack_yaml = yaml.safe_dump({"config": config}, sort_keys=False, default_flow_style=False)
    pool_lines = "".join(f"    {line}\n" for line in pools.splitlines())
    stack_text = (
        f"# Stack {request.stack}: GPU pools for the existing {request.profile.name} cluster {request.cluster_name}.\n"
        f"# gpuready plan --stack {request.stack} (offline), then pulumi up -s {request.stack}.\n"
        f"{stack_yaml}  {NS}:nodePools: |\n{pool_lines}"
    )
    project = (
        f"name: {PROJECT_NAME}\n"
        "description: GPU node pools made by gpuready's stack program.\n"
        "runtime:\n  name: python\n  options:\n    toolchain: pip\n    virtualenv: venv\n"
        "# gpuready's config declarations (gpuready new writes them; a newer gpuready may add keys: gpuready new\n"
        "# into an empty directory shows the current block).\n"
        f"{config_block()}"
    )
    return {
        "Pulumi.yaml": project,
        "requirements.txt": f"{request.requirement}\n",
        "__main__.py": MAIN,
        f"Pulumi.{request.stack}.yaml": stack_text,
        ".gitignore": GITIGNORE,
        ".github/workflows/gpuready-plan.yml": workflow(request.stack),
    }
