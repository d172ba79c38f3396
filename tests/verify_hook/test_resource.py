"""``verify_pools`` and ``GpuPoolVerification`` under Pulumi's mock runtime: one dynamic resource per pool that
is not skipped, depending on its pool, with the kubeconfig as a secret, and no cluster call in preview."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pulumi
import pytest
from pulumi.runtime import rpc

from gpuready.core import pool_config
from gpuready.core.specs import GpuPoolSpec
from gpuready.eks.node_pool import EksGpuNodePool, EksGpuNodePoolArgs
from gpuready.verify.expectations import expectation_for
from gpuready.verify_hook import (
    GpuPoolVerification,
    GpuPoolVerificationArgs,
    GpuPoolVerificationProvider,
    verify_pools,
)
from gpuready.verify_hook.wire import expectation_to_data
from tests.cli_audit import test_smoke_nccl as nccl
from tests.kube_standin import KubeStandin
from tests.pulumi_mocks import CapturingMonitor, Registration, install_mocks, runtime_test
from tests.verify_hook.conftest import pool_spec

DYNAMIC = "pulumi-python:dynamic:Resource"
POOL = "gpuready:index:EksGpuNodePool"
NODE_GROUP = "aws:eks/nodeGroup:NodeGroup"
KUBECONFIG = "apiVersion: v1\nkind: Config\n"


@pytest.fixture
def provider_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call of the provider's create/update/verify (the mock engine must make none)."""
    calls: list[str] = []

    def record(method: str) -> Callable[..., Any]:
        def called(*_: object, **__: object) -> Any:
            calls.append(method)
            raise AssertionError(f"the provider's {method} ran")

        return called

    for method in ("create", "update", "verify"):
        monkeypatch.setattr(GpuPoolVerificationProvider, method, record(method))
    return calls


@pytest.fixture
def mocked() -> Iterator[CapturingMonitor]:
    yield install_mocks()


@pytest.fixture
def previewed() -> Iterator[CapturingMonitor]:
    yield install_mocks(preview=True)


def eks_pool(spec: GpuPoolSpec) -> EksGpuNodePool:
    return EksGpuNodePool(
        spec.name,
        EksGpuNodePoolArgs(pool=spec, cluster_name="ml", node_role_arn="arn:aws:iam::1:role/n", subnet_ids=["s"]),
    )


def run(specs: list[GpuPoolSpec], **kwargs: Any) -> None:
    @runtime_test
    def program() -> None:
        verify_pools([eks_pool(s) for s in specs], **kwargs)

    program()


def by_name(monitor: CapturingMonitor) -> dict[str, Registration]:
    return {r.name: r for r in monitor.of_type(DYNAMIC)}


def pool_urns(monitor: CapturingMonitor, name: str) -> set[str]:
    """The pool component's URN and its node group's: depending on a component means waiting for its children."""
    return {r.urn for r in monitor.registrations if r.name in (name, f"{name}-node-group")}


SPECS = [pool_spec("train"), pool_spec("infer", nodes=1), pool_spec("batch")]


def test_one_verification_per_pool_not_skipped(mocked: CapturingMonitor, provider_calls: list[str]) -> None:
    run(SPECS, kubeconfig=KUBECONFIG, skip=["batch"], timeout=600)
    checks = by_name(mocked)
    assert sorted(checks) == ["infer-verify", "train-verify"]  # nothing for the skipped pool
    for pool in ("train", "infer"):
        check = checks[f"{pool}-verify"]
        assert set(check.dependencies) & pool_urns(mocked, pool), check.dependencies
        assert not set(check.dependencies) & pool_urns(mocked, "batch")
        assert check.inputs["pool"] == pool
        assert check.inputs["timeout"] == 600.0
        spec = next(s for s in SPECS if s.name == pool)
        expected = expectation_to_data(expectation_for(spec))
        assert check.inputs["expectation"]["labels"] == expected["labels"]
        assert check.inputs["expectation"]["expected_nodes"] == float(expected["expected_nodes"])
    assert provider_calls == []


def test_the_kubeconfig_is_a_secret(mocked: CapturingMonitor) -> None:
    run(SPECS[:1], kubeconfig=KUBECONFIG)
    kubeconfig = by_name(mocked)["train-verify"].inputs["kubeconfig"]
    assert rpc.is_rpc_secret(kubeconfig)
    assert rpc.unwrap_rpc_secret(kubeconfig) == KUBECONFIG


def test_no_kubeconfig_means_the_default_resolution(mocked: CapturingMonitor) -> None:
    run(SPECS[:1])
    inputs = by_name(mocked)["train-verify"].inputs
    assert rpc.unwrap_rpc_secret(inputs["kubeconfig"]) == ""
    assert inputs["context"] == ""


def test_skipping_an_unknown_pool_is_an_error(mocked: CapturingMonitor) -> None:
    with pytest.raises(ValueError, match=r"skip names unknown pools \['trian'\]"):
        run(SPECS[:1], skip=["trian"])


def test_extra_dependencies_such_as_the_gpu_stack(mocked: CapturingMonitor) -> None:
    @runtime_test
    def program() -> None:
        stack = pulumi.CustomResource("test:index:GpuStack", "gpu-stack", {})
        verification = GpuPoolVerification(
            "solo", GpuPoolVerificationArgs.for_spec(pool_spec("solo"), depends_on=[stack], timeout=5)
        )
        pulumi.CustomResource("test:index:Workload", "workload", {}, pulumi.ResourceOptions(depends_on=[verification]))

    program()
    urns = {r.name: r.urn for r in mocked.registrations}
    assert urns["gpu-stack"] in mocked.one(DYNAMIC).dependencies
    assert urns["solo"] in mocked.one("test:index:Workload").dependencies  # downstream waits for verification


def test_a_negative_timeout_is_rejected_before_registering() -> None:
    with pytest.raises(ValueError, match="timeout must not be negative"):
        GpuPoolVerification("bad", GpuPoolVerificationArgs.for_spec(pool_spec(), timeout=-1))


def test_preview_registers_without_calling_the_provider_or_the_cluster(
    previewed: CapturingMonitor, provider_calls: list[str], kube_standin: KubeStandin, kubeconfig_path: Any
) -> None:
    before = len(kube_standin.requests.records)
    run(SPECS, kubeconfig=str(kubeconfig_path), skip=["batch"])
    assert sorted(by_name(previewed)) == ["infer-verify", "train-verify"]
    assert provider_calls == []
    assert len(kube_standin.requests.records) == before  # not one request reached the cluster


def test_the_smoke_nccl_image_reaches_a_fabric_pools_planned_all_reduce(mocked: CapturingMonitor) -> None:
    (spec,) = pool_config.parse_pools([nccl.POOL], "eks")
    run([spec], smoke=True, smoke_nccl_image="registry.example.com/pt:1")
    job = by_name(mocked)["train-verify"].inputs["smoke"]["objects"][-1]
    assert [c["image"] for c in job["spec"]["template"]["spec"]["containers"]] == ["registry.example.com/pt:1"]
