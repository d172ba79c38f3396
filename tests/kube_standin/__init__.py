"""A local Kubernetes API server stand-in over real HTTP, for tests of cluster-facing code.

Standard library only (plus pyyaml for seed files and kubeconfigs). See server.py for the entry point.
"""

import importlib
from typing import TYPE_CHECKING, Any

from .errors import StatusError
from .faults import Fault, Faults, RequestInfo
from .objects import make_namespace, make_node, make_resource_slice, parse_taint
from .requestlog import RequestLog, RequestRecord
from .store import Event, Store

if TYPE_CHECKING:
    from .server import KubeStandin, load_seed_file
else:

    def __getattr__(name: str) -> Any:
        # Imported lazily so `python -m tests.kube_standin.server` does not import server.py twice.
        if name in ("KubeStandin", "load_seed_file"):
            return getattr(importlib.import_module(".server", __name__), name)
        raise AttributeError(name)


__all__ = [
    "Event",
    "Fault",
    "Faults",
    "KubeStandin",
    "RequestInfo",
    "RequestLog",
    "RequestRecord",
    "StatusError",
    "Store",
    "load_seed_file",
    "make_namespace",
    "make_node",
    "make_resource_slice",
    "parse_taint",
]
