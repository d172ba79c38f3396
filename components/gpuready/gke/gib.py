"""GKE GPUDirect-RDMA: what a pod needs to use Google's gIB NCCL plugin. Pure.

Google's RDMA NCCL test pods (GoogleCloudPlatform/container-engine-accelerators
@992db81257553607f1477945f1b3219632991829 ``gpudirect-rdma/nccl-test.yaml`` L54-88; the A4X one,
``nccl-test-imex-a4x.yaml``, mounts the same) are the documented shape: the node's NVIDIA directory (where the
installer put the gIB plugin, ``lib64``) at ``/usr/local/nvidia``, the installer's gIB directory at
``/usr/local/gib``, a memory-backed ``/dev/shm``, ``LD_LIBRARY_PATH=/usr/local/nvidia/lib64``, and, before NCCL
runs, ``source /usr/local/gib/scripts/set_nccl_env.sh`` (the plugin's NCCL settings). No sidecar.
``tests/gke/test_gib.py`` checks these facts against that manifest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NVIDIA_DIR = "/usr/local/nvidia"
GIB_DIR = "/usr/local/gib"
VOLUMES: tuple[Mapping[str, Any], ...] = (  # nccl-test.yaml L54-64
    {"name": "library-dir-host", "hostPath": {"path": "/home/kubernetes/bin/nvidia"}},
    {"name": "gib", "hostPath": {"path": "/home/kubernetes/bin/gib"}},
    {"name": "shared-memory", "emptyDir": {"medium": "Memory", "sizeLimit": "250Gi"}},
)
CONTAINER: Mapping[str, Any] = {  # nccl-test.yaml L71-80
    "env": [{"name": "LD_LIBRARY_PATH", "value": f"{NVIDIA_DIR}/lib64"}],
    "volumeMounts": [
        {"name": "library-dir-host", "mountPath": NVIDIA_DIR},
        {"name": "gib", "mountPath": GIB_DIR},
        {"name": "shared-memory", "mountPath": "/dev/shm"},
    ],
}
SHELL_SETUP = (f"source {GIB_DIR}/scripts/set_nccl_env.sh",)  # nccl-test.yaml L88
"""What a container's shell runs before NCCL (the gIB plugin's NCCL environment)."""
