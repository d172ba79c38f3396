"""``check`` with a team's conventions (issue #27): Microsoft's ``sku=gpu`` taint, no SkyPilot labels, and how strict
the exit code is (``--fail-on``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuready.cli.verify_stack import stack_expectations
from gpuready.core.taints import Taint
from tests.cli_audit.conftest import GPU_TAINT, L4_POOL_LABELS, Cli
from tests.kube_standin import KubeStandin, make_node

LABELS = {k: v for k, v in L4_POOL_LABELS.items() if k != "gpuready.io/pool"}
"""A node of no stack pool: its expectation is inferred with the conventions."""
NO_SKYPILOT = {k: v for k, v in LABELS.items() if k != "skypilot.co/accelerator"}


def codes(gpuready: Cli, *flags: str) -> tuple[int, set[str]]:
    result = gpuready("check", "-o", "json", *flags)
    return result.code, {f["code"] for f in json.loads(result.out)["findings"]}


@pytest.mark.parametrize(
    ("taint", "labels", "flags", "expected"),
    [
        ("sku=gpu:NoSchedule", LABELS, (), {"gpu-taint-missing"}),
        ("sku=gpu:NoSchedule", LABELS, ("--gpu-taint", "sku=gpu:NoSchedule"), set()),
        (GPU_TAINT, LABELS, ("--gpu-taint", "sku=gpu:NoSchedule"), {"gpu-taint-missing"}),
        (GPU_TAINT, NO_SKYPILOT, (), {"accelerator-label-missing"}),
        (GPU_TAINT, NO_SKYPILOT, ("--no-skypilot-labels",), set()),
    ],
    ids=["sku-unsaid", "sku-said", "said-but-node-has-nvidia", "skypilot-expected", "skypilot-off"],
)
def test_check_expects_the_conventions_it_is_told(  # noqa: PLR0917 - pytest passes fixtures and parameters by position
    kube_standin: KubeStandin, gpuready: Cli, taint: str, labels: dict[str, str], flags: tuple[str, ...],
    expected: set[str],
) -> None:  # fmt: skip
    kube_standin.store.add(make_node("n1", instance_type="g6.xlarge", labels=labels, taints=[taint],
                                     capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
    assert codes(gpuready, *flags)[1] == expected


def test_a_malformed_gpu_taint_flag_is_invalid_input(kube_standin: KubeStandin, gpuready: Cli) -> None:
    result = gpuready("check", "--gpu-taint", "sku=gpu:Sometimes")
    assert result.code == 2
    assert "--gpu-taint" in result.err and "NoSchedule" in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    ("flags", "warning_only", "with_error"),
    [((), 0, 0), (("--fail-on", "error"), 0, 1), (("--fail-on", "warning"), 1, 1), (("--strict",), 1, 1)],
)
def test_fail_on_sets_which_findings_fail(
    kube_standin: KubeStandin, gpuready: Cli, flags: tuple[str, ...], warning_only: int, with_error: int
) -> None:
    kube_standin.store.add(make_node("untainted", instance_type="g6.xlarge", labels=LABELS,
                                     capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
    code, found = codes(gpuready, *flags)
    assert found == {"gpu-taint-missing"}  # a warning
    assert code == warning_only
    kube_standin.store.add(make_node("silent", instance_type="g6.xlarge", labels=LABELS, taints=[GPU_TAINT]))
    code, found = codes(gpuready, *flags)
    assert "gpus-not-advertised" in found  # an error
    assert code == with_error


@pytest.mark.parametrize(
    ("flags", "expected"), [((), {"gpu-taint-missing"}), (("--gpu-taint", "sku=gpu:NoSchedule"), set())]
)
def test_verify_by_selector_uses_the_conventions_too(
    kube_standin: KubeStandin, gpuready: Cli, flags: tuple[str, ...], expected: set[str]
) -> None:
    kube_standin.store.add(make_node("n1", instance_type="g6.xlarge", labels=LABELS, taints=["sku=gpu:NoSchedule"],
                                     capacity={"nvidia.com/gpu": "1"}))  # fmt: skip
    result = gpuready("verify", "-l", "nvidia.com/gpu.present=true", "--timeout", "5", "-o", "json", *flags)
    assert result.code == 0, result.err
    assert {f["code"] for f in json.loads(result.out)["findings"]} == expected


def test_verify_expects_the_stacks_conventions_of_its_own_pools() -> None:
    """The stack's pools carry its conventions, so ``verify --stack`` expects them of the pools' nodes."""

    root = str(Path(__file__).resolve().parents[2])
    sku = stack_expectations("aks-sku", root)
    assert set(sku) == {"t4", "a100"}
    for expectation in sku.values():
        assert expectation.taints[0] == Taint("sku", "gpu", "NoSchedule")
        assert "skypilot.co/accelerator" in expectation.labels  # the example keeps SkyPilot's label on
    assert stack_expectations("aks-dev", root)["t4shared"].taints[0].key == "nvidia.com/gpu"
