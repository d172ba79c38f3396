"""gpuready: GPU node pools on EKS, AKS and GKE that are correct by construction.

The public names load lazily, so ``import gpuready`` (and the CLI) does not pull in the Pulumi SDKs until a component
class is used. They are listed in ``gpuready.public_names``: the shared ones, and each provisioner's component and its
Args from its registration entry. Type checkers read them from the generated stub ``__init__.pyi``. Programs import
from here only (``from gpuready import ...``), never from the modules behind.
"""

from __future__ import annotations

import importlib
from typing import Any

from gpuready import public_names


def __getattr__(name: str) -> Any:
    if name == "__all__":
        return sorted(public_names.exports())
    module = public_names.exports().get(name)
    if module is None:
        raise AttributeError(f"module 'gpuready' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
