"""Which runtime a Pulumi project names: ``gpuready plan --program`` plans Python programs and checks YAML ones
(``gpuready.package.yaml_program``). Loads nothing but PyYAML."""

from __future__ import annotations

from pathlib import Path

import yaml

RUNTIME = "yaml"
"""Pulumi YAML's runtime name (``runtime: yaml`` or ``runtime: {name: yaml}``)."""


def project_runtime(project_dir: Path) -> str | None:
    """The runtime name of the project in ``project_dir``, or None when its ``Pulumi.yaml`` cannot say."""
    for name in ("Pulumi.yaml", "Pulumi.yml"):
        path = project_dir / name
        if path.is_file():
            try:
                document = yaml.safe_load(path.read_text(encoding="utf-8"))
            except yaml.YAMLError:
                return None
            runtime = document.get("runtime") if isinstance(document, dict) else None
            return runtime.get("name") if isinstance(runtime, dict) else runtime if isinstance(runtime, str) else None
    return None
