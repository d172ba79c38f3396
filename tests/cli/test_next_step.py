"""The next step appended to an unreachable cluster's error, and nothing added to any other error."""

from __future__ import annotations

import pytest

from gpuready.cli.next_step import with_next_step
from gpuready.kube.errors import KubeAuthError, KubeUnreachableError


@pytest.mark.parametrize(
    ("error", "kubeconfig", "context", "contains"),
    [
        (KubeUnreachableError("cannot connect to https://k:6443: refused", refused=True), None, None,
         ["Next: run kubectl cluster-info (same kubeconfig and context); is the address right"]),
        (KubeUnreachableError("list nodes: gave up after 5 attempts"), "/k/config", "prod", [
            "Next: run kubectl cluster-info --kubeconfig /k/config --context prod",
            "is the endpoint reachable from here", "VPN or bastion", "aws eks update-kubeconfig"]),
    ],
)  # fmt: skip
def test_unreachable_gets_the_next_step(
    error: KubeUnreachableError, kubeconfig: str | None, context: str | None, contains: list[str]
) -> None:
    text = with_next_step(error, kubeconfig, context)
    assert text.startswith(str(error))
    assert all(part in text for part in contains)


@pytest.mark.parametrize("error", [KubeAuthError("401", 401), ValueError("x"), "plain"])
def test_other_errors_are_left_as_they_are(error: Exception | str) -> None:
    assert with_next_step(error) == str(error)
