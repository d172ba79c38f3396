"""The fixed node-pool components refuse a spec whose ``provisioner`` makes its nodes another way (issue #14):
a Karpenter / NAP / ComputeClass spec never becomes a node group, node pool or agent pool by mistake."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gpuready import (
    AksGpuNodePool,
    AksGpuNodePoolArgs,
    EksGpuNodePool,
    EksGpuNodePoolArgs,
    GkeGpuNodePool,
    GkeGpuNodePoolArgs,
)
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, install_mocks, runtime_test

CASES = [
    ("eks", "karpenter", lambda spec: EksGpuNodePool("p", EksGpuNodePoolArgs(
        pool=spec, cluster_name="c", node_role_arn="arn:aws:iam::1:role/n", subnet_ids=["s"]))),
    ("aks", "nap", lambda spec: AksGpuNodePool("p", AksGpuNodePoolArgs(
        pool=spec, resource_group_name="rg", cluster_name="c"))),
    ("gke", "compute-class", lambda spec: GkeGpuNodePool("p", GkeGpuNodePoolArgs(
        pool=spec, cluster_name="c", location="us-central1-a"))),
]  # fmt: skip


@pytest.fixture
def mocked() -> Iterator[CapturingMonitor]:
    yield install_mocks()


@pytest.mark.parametrize(("cloud", "provisioner", "make"), CASES, ids=[c[0] for c in CASES])
def test_an_elastic_spec_is_refused_before_anything_registers(
    mocked: CapturingMonitor, cloud: str, provisioner: str, make: Any
) -> None:
    spec = build_spec(cloud, provisioner=provisioner, min_size=0)

    @runtime_test
    def program() -> None:
        make(spec)

    with pytest.raises(SpecError, match=f"not a {provisioner} pool") as raised:
        program()
    assert raised.value.problems[0].path == "pool.provisioner"
    mocked.assert_nothing_registered()
