"""The verification resource's smoke opt-in: after the pool converges its smoke Job runs and is deleted; a failing or
never-starting Job fails the update; without the opt-in no Job is created."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.eks.fabric import EFA_NCCL_IMAGE
from gpuready.eks.fabric_facts import EFA_RESOURCE
from gpuready.verify_hook.provider import GpuPoolVerificationProvider, PoolNotConvergedError
from gpuready.verify_hook.wire import smoke_from_data, smoke_to_data
from tests.cli_audit import test_smoke_nccl as nccl
from tests.cli_audit.test_smoke import controller
from tests.kube_standin import KubeStandin
from tests.verify_hook.conftest import pool_node, pool_spec, props


def run(kube: KubeStandin, kubeconfig: Path, phase: str | None, timeout: float, smoke: bool = True) -> dict[str, Any]:
    spec = pool_spec(nodes=1)
    kube.store.add(pool_node(spec, "gpu-1"))
    stop = threading.Event()
    thread = threading.Thread(target=controller, args=(kube, phase, "GPU 0: NVIDIA L4\n", stop)) if phase else None
    if thread:
        thread.start()
    try:
        extra = {"smoke": smoke_to_data(spec, None)} if smoke else {}
        return GpuPoolVerificationProvider().verify(props(spec, str(kubeconfig), timeout=timeout, **extra))
    finally:
        stop.set()
        if thread:
            thread.join()
        assert kube.store.objects("jobs") == [] and kube.store.objects("pods") == []


def test_a_passing_smoke_job_is_recorded(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    outs = run(kube_standin, kubeconfig_path, "Succeeded", 20)
    assert outs["converged"] and outs["smokeStatus"] == "passed"


def test_a_failing_smoke_job_fails_the_update_with_its_log(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    with pytest.raises(PoolNotConvergedError, match=r"smoke Job gpuready-smoke-gpu-\w+ failed") as error:
        run(kube_standin, kubeconfig_path, "Failed", 20)
    assert "log: GPU 0: NVIDIA L4" in str(error.value)


def test_a_smoke_job_that_never_starts_fails_at_the_deadline(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    with pytest.raises(PoolNotConvergedError, match="not-started"):
        run(kube_standin, kubeconfig_path, None, 8)


def test_without_the_opt_in_no_job_is_created(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    outs = run(kube_standin, kubeconfig_path, None, 5, smoke=False)
    assert "smokeStatus" not in outs
    assert not kube_standin.requests.find("POST", "/apis/batch/v1/namespaces/default/jobs")


def test_the_planned_job_survives_the_wire_with_floats() -> None:
    data = smoke_to_data(pool_spec(), "registry.example.com/cuda:12")
    wire = json.loads(json.dumps(data), parse_int=float)
    assert smoke_from_data(wire).objects == smoke_from_data(data).objects


def run_fabric(kube: KubeStandin, kubeconfig: Path, logs: tuple[str, str], image: str | None = None) -> dict[str, Any]:
    """The ``pulumi up`` hook on an EFA pool of two p5.48xlarge: its two-node NCCL run (of ``image``, None: the
    fabric's default), played by the stand-in."""
    (spec,) = pool_config.parse_pools([nccl.POOL], "eks")
    for name in ("p5-a", "p5-b"):
        node = pool_node(spec, name)
        node["status"]["capacity"][EFA_RESOURCE] = node["status"]["allocatable"][EFA_RESOURCE] = "32"
        kube.store.add(node)
    stop = threading.Event()
    thread = threading.Thread(target=nccl.controller, args=(kube, logs, stop))
    thread.start()
    try:
        return GpuPoolVerificationProvider().verify(props(spec, str(kubeconfig), timeout=20,
                                                          smoke=smoke_to_data(spec, None, image)))  # fmt: skip
    finally:
        stop.set()
        thread.join()
        for kind in ("jobs", "pods", "services"):
            assert kube.store.objects(kind) == [], kind


def test_the_hook_runs_a_fabric_pools_two_node_all_reduce(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    outs = run_fabric(kube_standin, kubeconfig_path, (nccl.EFA_LOG, nccl.EFA_LOG))
    assert outs["converged"] and outs["smokeStatus"] == "passed"


def test_the_hook_fails_an_update_whose_nccl_fell_back_to_sockets(
    kube_standin: KubeStandin, kubeconfig_path: Path
) -> None:
    with pytest.raises(PoolNotConvergedError, match="NCCL fell back to TCP sockets") as error:
        run_fabric(kube_standin, kubeconfig_path, (nccl.SOCKET_LOG, nccl.EFA_LOG))
    assert "NCCL INFO Using network Socket" in str(error.value)


@pytest.mark.parametrize(
    ("image", "shown"), [(None, EFA_NCCL_IMAGE), ("registry.example.com/pt:1", "registry.example.com/pt:1")]
)
def test_a_socket_fallback_names_the_image_and_the_setting_that_replaces_it(
    kube_standin: KubeStandin, kubeconfig_path: Path, image: str | None, shown: str
) -> None:
    with pytest.raises(PoolNotConvergedError) as error:
        run_fabric(kube_standin, kubeconfig_path, (nccl.SOCKET_LOG, nccl.EFA_LOG), image)
    message = str(error.value)
    assert f"the image {shown} may lack the fabric's NCCL plugin" in message
    assert "fix: read the pods' NCCL INFO lines" in message
    assert "gpuready:verifySmokeNcclImage (pulumi up) or --smoke-nccl-image" in message


@pytest.mark.parametrize(
    ("image", "expected"), [(None, EFA_NCCL_IMAGE), ("registry.example.com/pt:1", "registry.example.com/pt:1")]
)
def test_the_hooks_planned_all_reduce_runs_the_given_image_or_the_fabrics(image: str | None, expected: str) -> None:
    (spec,) = pool_config.parse_pools([nccl.POOL], "eks")
    job = smoke_from_data(smoke_to_data(spec, None, image)).job
    assert [c["image"] for c in job["spec"]["template"]["spec"]["containers"]] == [expected]
