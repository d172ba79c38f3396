"""The elastic pool components refuse a spec their provisioner does not make (another provisioner's, another
cloud's) before anything registers, with the provisioner they need."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gpuready import (
    AksNapGpuPool,
    AksNapGpuPoolArgs,
    EksAutoModeGpuPool,
    EksAutoModeGpuPoolArgs,
    EksKarpenterGpuPool,
    EksKarpenterGpuPoolArgs,
    GkeComputeClassGpuPool,
    GkeComputeClassGpuPoolArgs,
)
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError
from tests.core.conftest import build_spec
from tests.pulumi_mocks import CapturingMonitor, install_mocks, runtime_test

Make = Callable[[GpuPoolSpec, Any], object]
NO_PROVIDER: Any = object()
"""Never used: the spec is refused before the component touches its provider (a real one would register)."""

EKS_WIRING: dict[str, Any] = {"cluster_name": "c", "node_role": "n", "subnet_ids": ["s"]}
CASES: list[tuple[str, str, str, Make]] = [
    ("EksKarpenterGpuPool", "karpenter", "EKS",
     lambda spec, provider: EksKarpenterGpuPool(
         "p", EksKarpenterGpuPoolArgs(pool=spec, provider=provider, **EKS_WIRING))),
    ("EksAutoModeGpuPool", "eks-auto-mode", "EKS",
     lambda spec, provider: EksAutoModeGpuPool(
         "p", EksAutoModeGpuPoolArgs(pool=spec, provider=provider, **EKS_WIRING))),
    ("AksNapGpuPool", "nap", "AKS",
     lambda spec, provider: AksNapGpuPool("p", AksNapGpuPoolArgs(pool=spec, provider=provider))),
    ("GkeComputeClassGpuPool", "compute-class", "GKE",
     lambda spec, provider: GkeComputeClassGpuPool("p", GkeComputeClassGpuPoolArgs(pool=spec, provider=provider))),
]  # fmt: skip
WRONG_SPECS: list[tuple[str, dict[str, Any]]] = [
    ("eks", {}),
    ("eks", {"provisioner": "karpenter", "min_size": 0}),
    ("aks", {"provisioner": "nap", "min_size": 0}),
    ("gke", {}),
]


@pytest.fixture
def mocked() -> Iterator[CapturingMonitor]:
    yield install_mocks()


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize(
    ("cloud", "keys"), WRONG_SPECS, ids=[f"{c}-{k.get('provisioner', 'default')}" for c, k in WRONG_SPECS]
)
def test_a_spec_of_another_provisioner_is_refused_before_anything_registers(
    mocked: CapturingMonitor, case: tuple[str, str, str, Make], cloud: str, keys: dict[str, Any]
) -> None:
    component, provisioner, title, make = case
    spec = build_spec(cloud, **keys)
    if spec.provisioner == provisioner:
        return  # the component's own provisioner: not a wrong spec for it

    @runtime_test
    def program() -> None:
        make(spec, NO_PROVIDER)

    with pytest.raises(SpecError) as raised:
        program()
    (problem,) = raised.value.problems
    assert (problem.path, tuple(problem.allowed)) == ("pool.provisioner", (provisioner,))
    assert f"{component} needs a pool on {title} with provisioner: {provisioner}" in problem.problem
    mocked.assert_nothing_registered()
