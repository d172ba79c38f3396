"""What ``gpuready verify`` reads of a stack, without Pulumi: its pools (and their expectations), its conventions.

``--stack NAME`` reads ``stacks/Pulumi.NAME.yaml`` of the project; ``--config FILE`` a stack config file of any
program, whose project is the ``Pulumi.yaml`` beside the file or above it, else the working directory's as for
``plan --config``, or ``--project-dir``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gpuready.core.scheduling import LABEL_POOL
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import kind_of
from gpuready.offline.project import OfflineProjectError, Project, load_project, read_yaml
from gpuready.verify.expectations import Expectation, expectation_for

if TYPE_CHECKING:
    from gpuready.core.conventions import Conventions


class StackView(NamedTuple):
    """What ``verify`` takes from a stack: its pools, and the team's conventions (None: no stack)."""

    pools: list[GpuPoolSpec]
    conventions: Conventions | None

    @property
    def expectations(self) -> dict[str, Expectation]:
        """Pool name -> what its nodes must show."""
        return {spec.name: expectation_for(spec) for spec in self.pools}


NO_STACK = StackView([], None)


def stack_expectations(stack: str, project_dir: str | None) -> dict[str, Expectation]:
    """Pool name -> expectation for every pool in the stack's config (no Pulumi import)."""
    return stack_view(stack, project_dir).expectations


def stack_view(stack: str, project_dir: str | None) -> StackView:
    """The stack's pools and conventions (no Pulumi import)."""
    project = load_project(Path(project_dir) if project_dir else _find_project_dir())
    if not project.stack_file(stack).is_file():
        raise OfflineProjectError(f"stack {stack!r} has no config file {project.stack_file(stack)}")
    return _view(project, stack, None)


def config_expectations(path: Path, project_dir: str | None) -> dict[str, Expectation]:
    """Pool name -> expectation for every pool in a stack config file of any program (``config_view``)."""
    return config_view(path, project_dir).expectations


def config_view(path: Path, project_dir: str | None) -> StackView:
    """The pools and conventions of a stack config file of any program: read through the same project and config
    loading as ``--stack`` (the engine's rules: project defaults, declared types), for the stack the file name says
    (``Pulumi.prod.yaml``: ``prod``)."""
    if not path.is_file():
        raise OfflineProjectError(f"--config: file not found; got '{path}'", "pass the path of a Pulumi.<stack>.yaml")
    _require_stack_document(path)
    project = load_project(Path(project_dir) if project_dir else _config_project_dir(path.resolve().parent))
    stack = path.name.removeprefix("Pulumi.").rsplit(".", 1)[0] or path.stem
    return _view(project, stack, path)


def pool_selector(expectations: Mapping[str, Expectation]) -> str:
    """``gpuready.io/pool in (a,b)``: exactly the stack's pools."""
    return f"{LABEL_POOL} in ({','.join(sorted(expectations))})"


def _require_stack_document(path: Path) -> None:
    """Refuse a file that is not a Pulumi stack config file (a mapping with a ``config:`` mapping).

    The offline loader reads a file without ``config:`` as empty config, as the engine does for a stack; a file
    passed by name that has none is a mistake (the project's Pulumi.yaml, a Helm values file)."""
    document = read_yaml(path.read_text("utf-8-sig"), str(path))
    if isinstance(document, dict) and "runtime" in document:
        raise OfflineProjectError(
            f"--config: {path} is a Pulumi project file (it has 'runtime:'), not a stack config file",
            "pass the Pulumi.<stack>.yaml beside it; the project is found from there (or pass --project-dir)",
        )
    config = document.get("config") if isinstance(document, dict) else None
    if not isinstance(config, dict):
        has = "a mapping without 'config:'" if isinstance(document, dict) else kind_of(document)
        raise OfflineProjectError(
            f"--config: {path} is not a Pulumi stack config file: it holds {has}",
            "pass a Pulumi.<stack>.yaml whose 'config:' maps keys such as gpuready:cloud to values",
        )


def _view(project: Project, stack: str, config_file: Path | None) -> StackView:
    # The stack config and its model (pydantic, ~150 ms) load only when a stack is verified: ``verify -l`` stays fast.
    from gpuready.core.stack_settings import NS, parse_stack_settings  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified
    from gpuready.offline.pulumi_config import load_stack_config  # noqa: PLC0415 - pydantic and the stack config load only when a stack is verified

    config = load_stack_config(project, stack, config_file=config_file)
    if config_file is not None and not any(key.startswith(f"{NS}:") for key in config.values):
        raise OfflineProjectError(
            f"--config: {config_file} has no {NS}:* settings, so no GPU pools to verify",
            f"pass the stack file of a program whose pools are configured with {NS}:nodePools, or use -l SELECTOR",
        )
    values: dict[str, object] = {}
    for full_key, text in config.values.items():
        namespace, _, key = full_key.partition(":")
        if namespace == NS:
            values[key] = text  # as the engine passes them (arrays JSON-encoded): the settings model decodes them
    settings = parse_stack_settings(values)
    return StackView(list(settings.pools), settings.conventions)


def _config_project_dir(beside: Path) -> Path:
    """The project of a ``--config`` file: the ``Pulumi.yaml`` beside it or above it, else the one ``plan --config``
    uses (the working directory's, or above), so a stack file kept outside the project verifies as it plans."""
    try:
        return _find_project_dir(beside)
    except OfflineProjectError:
        try:
            return _find_project_dir()
        except OfflineProjectError:
            raise OfflineProjectError(
                f"no Pulumi.yaml in {beside}, {Path.cwd()} or above either",
                "run from the project or pass --project-dir",
            ) from None


def _find_project_dir(start: Path | None = None) -> Path:
    here = start or Path.cwd()
    for candidate in (here, *here.parents):
        if (candidate / "Pulumi.yaml").is_file() or (candidate / "Pulumi.yml").is_file():
            return candidate
    raise OfflineProjectError(f"no Pulumi.yaml in {here} or above", "run from the project or pass --project-dir")
