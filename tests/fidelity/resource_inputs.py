"""The input trees of the pool resources, read from the installed Pulumi SDKs: ``gpuready/<cloud>/inputs.json``.

A pool's ``overrides`` are checked against these trees in the pure core (``gpuready.core.resource_inputs``),
which cannot import the SDKs; this module introspects them and writes the trees, and
``tests/fidelity/test_resource_inputs.py`` fails when the installed SDKs and the recorded trees drift apart.

An SDK ``...Args`` class spells each input twice: its Python name (the property) and its provider name (the
property getter's ``_pulumi_name``, e.g. ``osSKU``); the type of a nested input is the ``...Args`` forward
reference in the ``__init__`` annotation, a ``Sequence[...]`` of it when the input is a list of mappings.

Regenerate after an SDK upgrade: ``python -m tests.fidelity.resource_inputs``.
"""

from __future__ import annotations

import importlib
import inspect
import json
import re
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
RESOURCES: dict[str, tuple[str, str, str, str]] = {
    "eks": ("pulumi_aws.eks", "NodeGroupArgs", "aws.eks.NodeGroup", "pulumi_aws"),
    "aks": (
        "pulumi_azure_native.containerservice",
        "AgentPoolArgs",
        "containerservice.AgentPool",
        "pulumi_azure_native",
    ),
    "gke": ("pulumi_gcp.container", "NodePoolArgs", "gcp.container.NodePool", "pulumi_gcp"),
}
"""cloud -> (SDK module, Args class, how messages name the resource, distribution)."""
ARGS_REF = re.compile(r"ForwardRef\('(\w+Args)'\)")
MAX_DEPTH = 8


def _args_type(annotation: object) -> tuple[str | None, bool]:
    """The nested ``...Args`` class an annotation names, and whether the input is a list of them."""
    text = str(annotation)
    match = ARGS_REF.search(text)
    if match is None:
        return None, False
    return match[1], text.startswith("typing.Union[typing.Sequence[")


def _tree(cls: type, inputs_module: Any, depth: int) -> dict[str, Any]:
    signature = inspect.signature(cls)
    tree: dict[str, Any] = {}
    for name, member in sorted(vars(cls).items()):
        wire = getattr(member.fget, "_pulumi_name", None) if isinstance(member, property) else None
        if not isinstance(wire, str):
            continue
        parameter = signature.parameters.get(name)
        nested, is_list = _args_type(parameter.annotation) if parameter is not None else (None, False)
        node: dict[str, Any] = {"python": name}
        if nested is not None and depth < MAX_DEPTH:
            node["list" if is_list else "inputs"] = _tree(getattr(inputs_module, nested), inputs_module, depth + 1)
        tree[wire] = node
    return tree


def resource_inputs(cloud: str) -> dict[str, Any]:
    """The tree of ``cloud``'s pool resource as the installed SDK declares it."""
    module_name, class_name, title, distribution = RESOURCES[cloud]
    module = importlib.import_module(module_name)
    inputs_module = importlib.import_module(f"{module_name}._inputs")
    return {
        "resource": title,
        "sdk": f"{distribution} {metadata.version(distribution.replace('_', '-'))}",
        "inputs": _tree(getattr(module, class_name), inputs_module, 0),
    }


def vendored_path(cloud: str) -> Path:
    return ROOT / "components" / "gpuready" / cloud / "inputs.json"


def render(tree: dict[str, Any]) -> str:
    return json.dumps(tree, indent=1, sort_keys=True) + "\n"


def main() -> None:
    for cloud in RESOURCES:
        vendored_path(cloud).write_text(render(resource_inputs(cloud)), encoding="utf-8")
        sys.stdout.write(f"wrote {vendored_path(cloud).relative_to(ROOT)}\n")


if __name__ == "__main__":
    main()
