"""An unknown ``gpuready:*`` key reaches the REAL stack program through the config bag and stops it before it
registers anything, with a close suggestion or none (the bag is what ``gpuready plan`` and the engine hand over)."""

from __future__ import annotations

import pulumi
import pytest

from tests.stacks.program_runs import (
    RecordingMonitor,
    assert_nothing_registered,
    config_bag,
    config_error_of,
    run_stack,
)


@pytest.mark.parametrize(
    ("stack", "key", "value", "hint"),
    [
        ("eks-dev", "binPackScheduler", "{clusterVersion: '1.33'}", "did you mean 'binpackScheduler'?"),
        ("aks-dev", "clustername", "aks-ml-prod", "did you mean 'clusterName'?"),
        ("gke-dev", "verifySkipPool", '["t4-mps"]', "did you mean 'verifySkipPools'?"),
        ("gke-dev", "diskSize", "100", ""),  # nothing close: no suggestion
    ],
)
def test_an_unknown_key_stops_the_program_before_it_registers(
    monitors: list[RecordingMonitor], stack: str, key: str, value: str, hint: str
) -> None:
    config = {**config_bag(stack), f"gpuready:{key}": value, "aws:someProviderKey": "left alone"}
    with pytest.raises(pulumi.RunError) as info:
        run_stack(stack, config)
    error = config_error_of(info.value)
    assert error is not None
    assert [(p.path, p.problem, p.hint) for p in error.problems] == [(f"gpuready:{key}", "unknown key", hint)]
    assert "clusterName" in error.problems[0].allowed
    assert_nothing_registered(monitors, stack)
