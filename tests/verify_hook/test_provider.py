"""The dynamic provider called directly (no Pulumi engine) against the Kubernetes API stand-in."""

from __future__ import annotations

import base64
import dataclasses
import tempfile
import time
from pathlib import Path
from typing import Any

import dill  # type: ignore[import-untyped]
import pytest
from pulumi.dynamic.dynamic import serialize_provider

from gpuready.core.scheduling import LABEL_ACCELERATOR, LABEL_GPU_PRESENT
from gpuready.core.specs import GpuPoolSpec
from gpuready.verify.expectations import expectation_for
from gpuready.verify_hook import GpuPoolVerificationProvider, PoolNotConvergedError
from gpuready.verify_hook.wire import expectation_from_data, expectation_to_data
from tests.kube.watching import when_watching
from tests.kube_standin import KubeStandin, make_resource_slice
from tests.verify_hook.conftest import pool_node, pool_spec, props

SPEC = pool_spec()


def test_converges_at_once_when_the_nodes_are_right(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(pool_node(SPEC, name))
    result = GpuPoolVerificationProvider().create(props(SPEC, str(kubeconfig_path)))
    assert result.id == "gpuready-verify-gpu"
    assert result.outs is not None
    assert result.outs["converged"] is True
    assert result.outs["nodes"] == 2
    assert result.outs["findings"] == 0
    assert result.outs["pool"] == "gpu"
    assert "kubeconfig" not in result.outs  # the secret never lands in the outputs
    assert result.outs["waited"] < 1.0


def test_kubeconfig_content_is_accepted_as_well_as_a_path(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(pool_node(SPEC, name))
    content = kubeconfig_path.read_text(encoding="utf-8")
    result = GpuPoolVerificationProvider().create(props(SPEC, content))
    assert result.outs is not None and result.outs["converged"] is True


def test_converges_when_the_last_label_lands_mid_wait(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    kube_standin.store.add(pool_node(SPEC, "gpu-a"))
    kube_standin.store.add(pool_node(SPEC, "gpu-b", drop=(LABEL_ACCELERATOR,)))
    landed: list[float] = []

    def land() -> None:
        kube_standin.store.label("nodes", "gpu-b", {LABEL_ACCELERATOR: "l4"})
        landed.append(time.monotonic())

    # Once the watch is open, however long the LIST took on a loaded machine (a fixed sleep raced it).
    thread = when_watching(kube_standin, land)
    result = GpuPoolVerificationProvider().create(props(SPEC, str(kubeconfig_path), timeout=10))
    returned = time.monotonic()
    thread.join()
    assert result.outs is not None and result.outs["converged"] is True
    assert landed and 0 <= returned - landed[0] < 1.0  # watched, not polled
    assert any(r.is_watch for r in kube_standin.requests.records)  # the label arrived over the WATCH


def test_fails_with_the_findings_table_when_the_timeout_passes(
    kube_standin: KubeStandin, kubeconfig_path: Path
) -> None:
    kube_standin.store.add(pool_node(SPEC, "gpu-a"))
    kube_standin.store.add(pool_node(SPEC, "gpu-b", drop=(LABEL_GPU_PRESENT,)))
    started = time.monotonic()
    with pytest.raises(PoolNotConvergedError) as caught:
        GpuPoolVerificationProvider().create(props(SPEC, str(kubeconfig_path), timeout=1.5))
    assert 1.4 <= time.monotonic() - started < 5
    message = str(caught.value)
    assert message.startswith("pool gpu: 1 of 2 nodes converged after 1.5s")
    assert "NODE" in message and "FINDINGS" in message  # the node table header
    assert "gpu-b: error gpu-present-missing" in message
    assert "gpu-a" not in message.split("\n\n")[1]  # only the failing node is listed
    assert "fix:" in message


def test_fails_when_too_few_nodes_joined(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    kube_standin.store.add(pool_node(SPEC, "gpu-a"))
    with pytest.raises(PoolNotConvergedError, match="pool-nodes-missing"):
        GpuPoolVerificationProvider().create(props(SPEC, str(kubeconfig_path), timeout=1))


def test_update_verifies_the_new_props(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(pool_node(SPEC, name))
    news = props(SPEC, str(kubeconfig_path))
    result = GpuPoolVerificationProvider().update("gpuready-verify-gpu", {}, news)
    assert result.outs is not None and result.outs["nodes"] == 2


def test_an_unreachable_cluster_fails_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(
        PoolNotConvergedError, match=r"cannot verify its nodes: .* one line that names no existing file"
    ):
        GpuPoolVerificationProvider().create(props(SPEC, str(tmp_path / "missing"), timeout=1))


def test_the_default_kubeconfig_resolution_is_used_when_none_is_given(
    kube_standin: KubeStandin, kubeconfig_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(pool_node(SPEC, name))
    monkeypatch.setenv("KUBECONFIG", str(kubeconfig_path))
    result = GpuPoolVerificationProvider().create(props(SPEC, ""))
    assert result.outs is not None and result.outs["converged"] is True


# ------------------------------------------------------------------ diff and check


def test_diff_reports_no_change_for_the_same_pool_and_expectation() -> None:
    olds = props(SPEC, "")
    news = {**props(SPEC, "new-kubeconfig", timeout=60)}  # credentials and timeout alone do not re-verify
    assert GpuPoolVerificationProvider().diff("id", olds, news).changes is False


@pytest.mark.parametrize(
    "change",
    [
        {"expectation": expectation_to_data(expectation_for(pool_spec(nodes=3)))},
        {"pool": "other"},
        {"context": "prod"},
        {"triggers": ["eks-gpu-2"]},
    ],
)
def test_diff_reports_a_change_so_the_update_re_verifies(change: dict[str, object]) -> None:
    result = GpuPoolVerificationProvider().diff("id", props(SPEC, ""), {**props(SPEC, ""), **change})
    assert result.changes is True
    assert result.replaces == []  # an update in place: verification again, no delete


def test_check_rejects_a_negative_timeout_and_an_empty_pool() -> None:
    result = GpuPoolVerificationProvider().check({}, {**props(SPEC, ""), "pool": "", "timeout": -1})
    assert sorted(f.property for f in result.failures) == ["pool", "timeout"]


def test_expectation_survives_the_wire_with_floats() -> None:
    expectation = expectation_for(SPEC)
    data = expectation_to_data(expectation)
    floats = {k: float(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in data.items()}
    floats["allocatable"] = {k: float(v) for k, v in data["allocatable"].items()}
    assert expectation_from_data(floats) == expectation
    assert "advertiser" not in data  # extended resources, the default, leave the resource's inputs as they were


def test_another_advertiser_survives_the_wire() -> None:
    expectation = dataclasses.replace(expectation_for(SPEC), advertiser="dra")
    data = expectation_to_data(expectation)
    assert data["advertiser"] == "dra"
    assert expectation_from_data(data) == expectation


def test_the_provider_pickles_and_runs_out_of_process_form() -> None:
    restored = dill.loads(base64.b64decode(serialize_provider(GpuPoolVerificationProvider())))
    assert isinstance(restored, GpuPoolVerificationProvider)


def test_kubeconfig_content_never_touches_the_disk(
    kube_standin: KubeStandin, kubeconfig_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing to remove on SIGTERM or SIGKILL: the content is parsed in memory, no temporary file is written."""
    for name in ("gpu-a", "gpu-b"):
        kube_standin.store.add(pool_node(SPEC, name))
    made: list[str] = []
    for maker in ("mkstemp", "NamedTemporaryFile", "mktemp"):
        original = getattr(tempfile, maker)

        def recording(*args: object, _original: Any = original, _maker: str = maker, **kwargs: object) -> Any:
            made.append(_maker)
            return _original(*args, **kwargs)

        monkeypatch.setattr(tempfile, maker, recording)
    content = kubeconfig_path.read_text(encoding="utf-8")
    result = GpuPoolVerificationProvider().create(props(SPEC, content))
    assert result.outs is not None and result.outs["converged"] is True
    assert made == []


ELASTIC = GpuPoolSpec(cloud="eks", name="burst", instance_type="g6.xlarge", min_size=0, max_size=2,
                      provisioner="karpenter")  # fmt: skip


def test_an_elastic_pool_without_nodes_verifies_at_once(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    result = GpuPoolVerificationProvider().create(props(ELASTIC, str(kubeconfig_path), timeout=10))
    assert result.outs is not None
    assert (result.outs["converged"], result.outs["nodes"], result.outs["findings"]) == (True, 0, 0)
    assert result.outs["waited"] < 1.0


def test_an_elastic_pools_nodes_are_checked_when_they_appear(kube_standin: KubeStandin, kubeconfig_path: Path) -> None:
    kube_standin.store.add(pool_node(ELASTIC, "burst-a", drop=(LABEL_GPU_PRESENT,)))
    with pytest.raises(PoolNotConvergedError, match="pool burst: 0 of 1 nodes converged"):
        GpuPoolVerificationProvider().create(props(ELASTIC, str(kubeconfig_path), timeout=1))


DRA_SPEC = GpuPoolSpec(cloud="eks", name="dra", instance_type="g6.12xlarge", min_size=1, max_size=2, advertise="dra")


def test_a_dra_expectation_keeps_its_devices_over_the_wire() -> None:
    expectation = expectation_for(DRA_SPEC)
    data = expectation_to_data(expectation)
    assert data["devices"] == {"gpu.nvidia.com": 4}
    assert expectation_from_data({**data, "devices": {"gpu.nvidia.com": 4.0}}) == expectation
    assert "devices" not in expectation_to_data(expectation_for(SPEC))


@pytest.mark.parametrize(("devices", "converged"), [(4, True), (0, False)])
def test_a_dra_pool_converges_on_its_resource_slices(
    kube_standin: KubeStandin, kubeconfig_path: Path, devices: int, converged: bool
) -> None:
    node = pool_node(DRA_SPEC, "dra-a")
    node["metadata"]["labels"]["feature.node.kubernetes.io/pci-10de.present"] = "true"
    kube_standin.store.add(node)
    if devices:
        kube_standin.store.add(make_resource_slice("dra-a", devices))
    provider_props = props(DRA_SPEC, str(kubeconfig_path), timeout=3.0)
    if converged:
        assert GpuPoolVerificationProvider().create(provider_props).outs["converged"] is True  # type: ignore[index]
        return
    with pytest.raises(PoolNotConvergedError, match="dra-slices-missing"):
        GpuPoolVerificationProvider().create(provider_props)


SLICES = "/apis/resource.k8s.io/v1/resourceslices"


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        (None, "dra-slices-missing"),  # no slices published: the audit ran on its share of the deadline
        (403, "slices not checked: list resourceslices: 403"),  # not allowed: the node report stands, says why
    ],
)
def test_a_dra_pool_whose_nodes_never_converge_still_gets_its_slices_audited(
    kube_standin: KubeStandin, kubeconfig_path: Path, fault: int | None, expected: str
) -> None:
    node = pool_node(DRA_SPEC, "dra-a", drop=(LABEL_GPU_PRESENT,))  # never converges: the watch runs to its end
    node["metadata"]["labels"]["feature.node.kubernetes.io/pci-10de.present"] = "true"
    kube_standin.store.add(node)
    if fault is not None:
        kube_standin.faults.fail(fault, path=SLICES, times=100)
    started = time.monotonic()
    with pytest.raises(PoolNotConvergedError) as caught:
        GpuPoolVerificationProvider().create(props(DRA_SPEC, str(kubeconfig_path), timeout=2.0))
    assert time.monotonic() - started < 4  # one deadline for the watch and the audit together
    message = str(caught.value)
    assert message.startswith("pool dra: 0 of 1 nodes converged after 2s"), message  # a report, not an error
    assert "cannot verify" not in message and "deadline passed" not in message
    assert "dra-a: error gpu-present-missing" in message
    assert expected in message  # before: slices never listed once the node watch had used the deadline
    assert kube_standin.requests.count("GET", SLICES) >= 1
