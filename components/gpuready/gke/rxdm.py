"""GKE GPUDirect-TCPX / -TCPXO: the RxDM sidecar, its volumes and what the NCCL container needs beside it. Pure.

Google's NCCL test pods are the documented shape (GoogleCloudPlatform/container-engine-accelerators
@992db81257553607f1477945f1b3219632991829,
``gpudirect-tcpx/nccl-test-latest.yaml`` L61-133 and ``gpudirect-tcpxo/nccl-test-latest.yaml`` L81-160; GKE
"Maximize GPU network bandwidth ...", "Add GPUDirect to your manifests"): a ``tcpx-daemon`` / ``tcpxo-daemon``
sidecar (the receive data-path manager) with ``NET_ADMIN`` (TCPXO also ``NET_BIND_SERVICE``), the node's NVIDIA
libraries, ``/sys`` and ``/proc/sys``; the NCCL container finds the plugin through ``LD_LIBRARY_PATH`` and, on TCPX,
talks to the daemon over the ``/run/tcpx`` socket directory (mounted at ``/tmp``), on TCPXO reads the aperture
devices (``NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY``) and gets a memory-backed ``/dev/shm``. The devices the sidecar needs
come through the pod annotation (``fabric_objects.pod_annotations``). GPUDirect-RDMA needs no sidecar.
``tests/gke/test_rxdm.py`` checks every fact here against those two manifests (the daemon's ``--setup_param``
value keeps the manifest's backslash-escaped quotes: a plain YAML scalar, passed to the daemon as written).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpuready.record import record

LIB = "/usr/local/nvidia/lib64"
LIB_ENV = {"name": "LD_LIBRARY_PATH", "value": LIB}
HOST_LIB = "/home/kubernetes/bin/nvidia/lib64"
_LIBS = {"name": "nvidia-libraries", "hostPath": {"path": HOST_LIB}}
_SYS = {"name": "host-sys", "hostPath": {"path": "/sys"}}
_PROC_SYS = {"name": "host-proc-sys", "hostPath": {"path": "/proc/sys"}}
_DAEMON_MOUNTS = [
    {"name": "nvidia-libraries", "mountPath": LIB},
    {"name": "host-sys", "mountPath": "/hostsysfs"},
    {"name": "host-proc-sys", "mountPath": "/hostprocsysfs"},
]


@record(frozen=True, slots=True)
class Rxdm:
    """The sidecar of one kind and what the pod and the NCCL container need with it."""

    sidecar: Mapping[str, Any]
    volumes: tuple[Mapping[str, Any], ...]
    container: Mapping[str, Any]
    """``env`` and ``volumeMounts`` entries and ``capabilities`` added to every NCCL container."""


RXDM: Mapping[str, Rxdm] = {
    "gpudirect-tcpx": Rxdm(  # gpudirect-tcpx/nccl-test-latest.yaml L62-90, L100-111, L122-133
        sidecar={
            "name": "tcpx-daemon",
            "image": "us-docker.pkg.dev/gce-ai-infra/gpudirect-tcpx/tcpgpudmarxd-dev:v2.0.12",
            "command": [
                "/tcpgpudmarxd/build/app/tcpgpudmarxd", "--gpu_nic_preset", "a3vm", "--gpu_shmem_type", "fd",
                "--uds_path", "/run/tcpx", "--setup_param", '\\"--verbose 128 2 0 \\"',
            ],
            "securityContext": {"capabilities": {"add": ["NET_ADMIN"]}},
            "volumeMounts": [*_DAEMON_MOUNTS, {"name": "tcpx-socket", "mountPath": "/run/tcpx"}],
            "env": [LIB_ENV],
        },
        volumes=(_LIBS, _SYS, _PROC_SYS, {"name": "tcpx-socket", "hostPath": {"path": "/run/tcpx"}}),
        container={
            "env": [LIB_ENV],
            "volumeMounts": [
                {"name": "tcpx-socket", "mountPath": "/tmp"}, {"name": "nvidia-libraries", "mountPath": LIB},
            ],
            "capabilities": ["IPC_LOCK"],
        },
    ),
    "gpudirect-tcpxo": Rxdm(  # gpudirect-tcpxo/nccl-test-latest.yaml L82-106, L129-140, L144-160
        sidecar={
            "name": "tcpxo-daemon",
            "image": "us-docker.pkg.dev/gce-ai-infra/gpudirect-tcpxo/tcpgpudmarxd-dev:v1.0.21",
            "command": ["/bin/sh", "-c"],
            "args": ["set -ex\nchmod 755 /fts/entrypoint_rxdm_container.sh\n"
                     "/fts/entrypoint_rxdm_container.sh --num_hops=2\n"],
            "securityContext": {"capabilities": {"add": ["NET_ADMIN", "NET_BIND_SERVICE"]}},
            "volumeMounts": list(_DAEMON_MOUNTS),
            "env": [LIB_ENV],
        },
        volumes=(
            _LIBS, _SYS, _PROC_SYS,
            {"name": "shared-memory", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}},
            {"name": "aperture-devices", "hostPath": {"path": "/dev/aperture_devices"}},
        ),
        container={
            "env": [LIB_ENV, {"name": "NCCL_FASTRAK_LLCM_DEVICE_DIRECTORY", "value": "/dev/aperture_devices"}],
            "volumeMounts": [
                {"name": "nvidia-libraries", "mountPath": LIB}, {"name": "shared-memory", "mountPath": "/dev/shm"},
                {"name": "aperture-devices", "mountPath": "/dev/aperture_devices"},
            ],
        },
    ),
}  # fmt: skip
"""Fabric kind -> its RxDM sidecar, the pod volumes and the NCCL container's additions."""
