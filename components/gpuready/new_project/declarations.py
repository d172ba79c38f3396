"""The ``config:`` block of a Pulumi project that runs gpuready's stack program: every ``gpuready:*`` key, typed,
with its default and description. One source (``project_config.yaml`` beside this module, shipped in the wheel,
generated from the settings models by ``tools/project_config.py``): the repository's ``Pulumi.yaml`` carries it and
``gpuready new`` writes it.

The project is named ``gpuready`` because Pulumi types only the keys of the project's own namespace (pulumi/pulumi
``sdk/go/common/workspace/project.go``: "is not namespaced by the project and should not define a type";
``gpuready.offline.project`` mirrors it) and the stack program reads ``gpuready:*``.
"""

from __future__ import annotations

from importlib.resources import files

PROJECT_NAME = "gpuready"
"""The Pulumi project name, hence the config namespace, of every project that runs the stack program."""


def config_block() -> str:
    """The ``config:`` block as it stands in ``Pulumi.yaml`` (the key ``config:`` and its indented declarations)."""
    text = files("gpuready.new_project").joinpath("project_config.yaml").read_text(encoding="utf-8")
    body = "".join(f"  {line}" if line.strip() else line for line in text.splitlines(keepends=True))
    return "config:\n" + body
