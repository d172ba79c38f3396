"""The two-node NCCL all-reduce of a fabric pool's smoke run, and how its logs are judged. Pure: objects and text.

A fabric pool (``fabric`` set, room for two nodes, and a cloud that names its fabric's NCCL network) gets, instead
of the one-GPU ``nvidia-smi`` Job, an Indexed Job of two pods (``completions: parallelism: 2``) behind a headless
Service of the same name, each pod taking every GPU and every fabric device of its node (the workload helper's
whole-node request, so the two pods land on two nodes). Each pod runs ``torchrun`` over the node's GPUs with an
all-reduce, ``NCCL_DEBUG=INFO``; rank 0's node is found by name: an Indexed Job's pod has the hostname
``<job>-<index>`` and, with ``subdomain`` naming a headless Service, the DNS name ``<job>-<index>.<service>``
(Kubernetes docs, "Job with Pod-to-Pod Communication"; ``publishNotReadyAddresses`` so the name resolves before
readiness). The Job's ``gpuready.io/smoke-nccl-networks`` annotation names the NCCL networks of the pool's fabric
(its cloud's ``CloudFabric.nccl_networks``), which ``judge_nccl_log`` looks for in the logs:

* NCCL logs the network each communicator uses as ``NCCL INFO Using network <name>`` (NVIDIA/nccl v2.30.7-1
  ``src/init.cc`` L486), where the name is the net plugin's (``ncclNet_t.name``) or one of NCCL's own: ``Socket``
  (``src/transport/net_socket.cc`` L803-804, TCP sockets) and ``IB`` (``src/transport/net_ib/common.cc``
  L193-194, InfiniBand / RoCE verbs).
* ``Socket`` in a fabric pool's log is a failure: "NCCL fell back to TCP sockets".
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from gpuready.core.health.smoke_image import DEFAULT_NCCL_IMAGE, NCCL_IMAGE_FLAG, NCCL_IMAGE_SETTING
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from gpuready.record import record

ANNOTATION_NCCL_NETWORKS = "gpuready.io/smoke-nccl-networks"
"""On the NCCL smoke Job: the NCCL networks its fabric's plugin registers, comma-separated."""
NODES = 2
PORT = 29500
"""torchrun's rendezvous port on rank 0's pod (torch.distributed's default ``MASTER_PORT``)."""
MARKER = "gpuready-nccl: all-reduce"
SOCKET = "Socket"
"""NCCL's own TCP socket transport (``ncclNetSocket.name``, NVIDIA/nccl v2.30.7-1 net_socket.cc L803-804)."""
_USING = re.compile(r"NCCL INFO Using network (?P<net>\S.*?)\s*$")
NCCL_ENV: Mapping[str, str] = {"NCCL_DEBUG": "INFO", "NCCL_DEBUG_SUBSYS": "INIT,NET"}
"""NCCL's log level and subsystems: ``INIT`` carries the ``Using network`` line (NCCL docs, Environment
Variables: ``NCCL_DEBUG``, ``NCCL_DEBUG_SUBSYS``)."""

_PROGRAM = f"""\
import os, torch, torch.distributed as dist
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl")
x = torch.ones(1 << 26, device="cuda")
dist.all_reduce(x)
torch.cuda.synchronize()
ok = x[0].item() == dist.get_world_size()
print("{MARKER} of 256 MiB over", dist.get_world_size(), "ranks:", "ok" if ok else "WRONG SUM", flush=True)
dist.destroy_process_group()
raise SystemExit(0 if ok else 1)
"""


def nccl_networks(pool: GpuPoolSpec) -> tuple[str, ...]:
    """The NCCL networks of ``pool``'s fabric (its cloud's table), empty without a fabric or an entry."""
    fabric = pool.fabric
    return () if fabric is None else tuple(pool.profile.fabric.nccl_networks.get(fabric.kind, ()))


def default_image(pool: GpuPoolSpec) -> str:
    """The all-reduce's image when none is given: the one its cloud names for the pool's fabric kind
    (``CloudFabric.nccl_images``), else the generic ``DEFAULT_NCCL_IMAGE``."""
    fabric = pool.fabric
    images = pool.profile.fabric.nccl_images
    return DEFAULT_NCCL_IMAGE if fabric is None else images.get(fabric.kind, DEFAULT_NCCL_IMAGE)


def wants_nccl_run(pool: GpuPoolSpec) -> bool:
    """``pool``'s smoke run is the two-node all-reduce: it has a fabric NCCL names and room for two nodes."""
    return bool(nccl_networks(pool)) and pool.max_size >= NODES


def command(gpus: int, setup: Sequence[str] = ()) -> list[str]:
    """The pod's command (bash): the fabric's ``setup`` lines (``FabricWorkload.shell_setup``), write the all-reduce
    program, then ``torchrun`` it over ``gpus`` local ranks, rank 0's node found from the pod's own hostname
    (``<job>-<index>``) under the Service of the Job's name."""
    script = (
        "".join(f"{line}\n" for line in setup) + f"cat > /tmp/gpuready_allreduce.py <<'EOF'\n{_PROGRAM}EOF\n"
        'host="${HOSTNAME:-$(hostname)}"; job="${host%-*}"\n'
        f'exec torchrun --nnodes={NODES} --nproc-per-node={gpus} --node-rank="$JOB_COMPLETION_INDEX" '
        f'--master-addr="$job-0.$job" --master-port={PORT} /tmp/gpuready_allreduce.py'
    )
    return ["bash", "-c", script]


def nccl_objects(
    pool: GpuPoolSpec, *, image: str, namespace: str, name: str, labels: Mapping[str, str], deadline_seconds: int,
    ttl: int,
) -> list[dict[str, Any]]:  # fmt: skip
    """The headless Service and the Indexed Job (last) of ``pool``'s two-node all-reduce."""
    gpus = pool.resolved.gpu.gpus
    workload = gpu_workload(pool, gpus)
    container = workload.container({
        "name": "nccl-allreduce",
        "image": image,
        "command": command(gpus, workload.fabric.shell_setup),
        "env": [{"name": k, "value": v} for k, v in NCCL_ENV.items()],
        "ports": [{"containerPort": PORT, "name": "rendezvous"}],
    })  # fmt: skip
    volumes = workload.volumes()
    if not any(m.get("mountPath") == "/dev/shm" for m in container.get("volumeMounts") or []):
        # NCCL's and torch's intra-node buffers live in /dev/shm; a container runtime's default is 64 MiB.
        volumes.append({"name": "gpuready-shm", "emptyDir": {"medium": "Memory"}})
        container["volumeMounts"] = [*(container.get("volumeMounts") or []),
                                     {"name": "gpuready-shm", "mountPath": "/dev/shm"}]  # fmt: skip
    pod_spec: dict[str, Any] = {**workload.pod_spec(), "restartPolicy": "Never", "subdomain": name,
                                "containers": [container]}  # fmt: skip
    if workload.sidecars():
        # The fabric's daemons (GKE's RxDM) as native sidecars, stopped once the all-reduce exits so the pod can
        # complete (Kubernetes docs, "Sidecar Containers": an init container with restartPolicy Always, v1.29+).
        pod_spec["initContainers"] = [{**sidecar, "restartPolicy": "Always"} for sidecar in workload.sidecars()]
    if volumes:
        pod_spec["volumes"] = volumes
    template_meta: dict[str, Any] = {"labels": {**labels, **workload.pod_labels()}}
    if workload.pod_annotations():
        template_meta["annotations"] = workload.pod_annotations()
    service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels)},
        "spec": {"clusterIP": "None", "publishNotReadyAddresses": True, "selector": dict(labels),
                 "ports": [{"name": "rendezvous", "port": PORT, "targetPort": PORT}]},
    }  # fmt: skip
    job = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": name, "namespace": namespace, "labels": dict(labels),
                     "annotations": {ANNOTATION_NCCL_NETWORKS: ",".join(nccl_networks(pool))}},
        "spec": {
            "completionMode": "Indexed", "completions": NODES, "parallelism": NODES, "backoffLimit": 0,
            "activeDeadlineSeconds": deadline_seconds, "ttlSecondsAfterFinished": ttl,
            "template": {"metadata": template_meta, "spec": pod_spec},
        },
    }  # fmt: skip
    return [service, job]


@record(frozen=True, slots=True)
class NcclVerdict:
    """What the logs of a two-node all-reduce say."""

    ok: bool
    networks: tuple[str, ...]
    """The NCCL networks the logs name (``Using network ...``), in order of first appearance."""
    detail: str
    cause: str = ""
    fix: str = ""


def judge_nccl_log(lines: Iterable[str], expected: Sequence[str], pod_command: str, image: str = "") -> NcclVerdict:
    """Whether the log ``lines`` of every pod show NCCL on one of the ``expected`` networks (a plugin's name, or
    its name followed by ``_``: Google's TCPX plugin logs ``GPUDirectTCPX_v7``) and the all-reduce's sum right;
    ``image``: the pods' image, named when NCCL fell back to sockets (it may lack the fabric's plugin)."""
    seen: list[str] = []
    done = 0
    for line in lines:
        found = _USING.search(line)
        if found and found["net"] not in seen:
            seen.append(found["net"])
        done += MARKER in line and line.rstrip().endswith("ok")
    wanted = " or ".join(expected)
    networks = tuple(seen)
    if SOCKET in seen:
        return NcclVerdict(
            False, networks, f"NCCL fell back to TCP sockets (Using network {SOCKET}); expected {wanted}"
            + (f"; the image {image} may lack the fabric's NCCL plugin" if image else ""),
            cause="NCCL did not load the fabric's net plugin or found no fabric device in the pod: the plugin is "
            "not in the image or not on its library path, the pod got no fabric devices, or the nodes cannot reach "
            "each other over the fabric (security group, subnet, fabric driver)",
            fix=f"read the pods' NCCL INFO lines above the 'Using network' line ({pod_command}); if the image lacks "
            f"the plugin, pass one with torchrun, NCCL and the fabric's plugin: {NCCL_IMAGE_SETTING} (pulumi up) or "
            f"{NCCL_IMAGE_FLAG} (gpuready verify --smoke)",
        )  # fmt: skip
    if not seen:
        return NcclVerdict(
            False, networks, "no 'NCCL INFO Using network' line in the logs: NCCL never set up a communicator",
            cause="the image has no torchrun or NCCL, or the two pods never met (rank 0's DNS name, the rendezvous "
            "port)",
            fix=f"read the pods' logs ({pod_command}); pass an image with PyTorch and NCCL: {NCCL_IMAGE_SETTING} "
            f"(pulumi up) or {NCCL_IMAGE_FLAG} (gpuready verify --smoke)",
        )  # fmt: skip
    other = [n for n in seen if not any(n == e or n.startswith(f"{e}_") for e in expected)]
    if other:
        return NcclVerdict(
            False, networks, f"NCCL used network {', '.join(other)}; expected {wanted}",
            cause="NCCL chose another transport than the fabric's (another net plugin found first, or NCCL_NET set)",
            fix=f"check NCCL_NET and the plugins on the image's library path ({pod_command})",
        )  # fmt: skip
    if done < NODES:
        return NcclVerdict(
            False, networks, f"NCCL used {', '.join(seen)} but the all-reduce did not report a right sum on both "
            "nodes",
            cause="the all-reduce failed or was cut off (see the log)", fix=f"read the pods' logs ({pod_command})",
        )  # fmt: skip
    return NcclVerdict(True, networks, f"all-reduce over {NODES} nodes on NCCL network {', '.join(seen)}")


def pod_logs_command(namespace: str, run_labels: Mapping[str, str]) -> str:
    """``kubectl logs`` of a run's pods."""
    selector = ",".join(f"{k}={v}" for k, v in sorted(run_labels.items()))
    return f"kubectl logs -n {shlex.quote(namespace)} -l {selector} --prefix --tail=-1"
