"""gpuready's settings from a project and a stack file, read the way the engine would hand them to the program.

For commands that need the settings without running the program (``gpuready verify``): the same config bag as
``gpuready plan`` (``pulumi_config.load_stack_config``: stack file or ``--config`` file, ``--set``, ``--set-path``,
project defaults, the engine's type checks), then the same settings model as the stack program
(``parse_stack_settings``: unknown ``gpuready:*`` keys, every rule, every problem at once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from gpuready.core.stack_settings import NS, StackSettings, parse_stack_settings
from gpuready.offline.project import Project
from gpuready.offline.pulumi_config import load_stack_config


def load_settings(
    project: Project,
    stack: str,
    *,
    config_file: Path | None = None,
    overrides: Sequence[str] = (),
    path_overrides: Sequence[str] = (),
) -> StackSettings:
    """The validated settings of ``stack`` (``Pulumi.<stack>.yaml``, or ``config_file``, then the overrides).

    Raises:
        OfflineProjectError: the project, the stack file or an override cannot be read.
        ConfigError: the gpuready settings are refused (every problem listed).
    """
    config = load_stack_config(
        project, stack, config_file=config_file, overrides=overrides, path_overrides=path_overrides
    )
    secret = {key.partition(":")[2] for key in config.secret_keys if key.startswith(f"{NS}:")}
    return parse_stack_settings(gpuready_values(config.values), secret)


def gpuready_values(bag: Mapping[str, str]) -> dict[str, object]:
    """The ``gpuready:*`` entries of an engine config bag, without the namespace, as the program receives them
    (arrays JSON-encoded: the settings model decodes them)."""
    values: dict[str, object] = {}
    for full_key, text in bag.items():
        namespace, _, key = full_key.partition(":")
        if namespace == NS:
            values[key] = text
    return values
