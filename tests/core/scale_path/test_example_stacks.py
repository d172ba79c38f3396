"""Every example stack's pools scale: for every shape each pool advertises, a pending pod makes its autoscaler create
nodes up to the pool's maxSize and the scheduler places it there (issue #24), in the stack settings and in the
golden plans (``plan -o json``: each pool's ``scales``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.stack_settings import StackSettings, parse_stack_settings
from gpuready.gke.scale_path import QUEUED_VIA

ROOT = Path(__file__).resolve().parents[3]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
GOLDEN = ROOT / "tests" / "golden" / "data"


def _settings(stack: str) -> StackSettings:
    config = yaml.safe_load((ROOT / "stacks" / f"Pulumi.{stack}.yaml").read_text("utf-8"))["config"]
    values = {k.split(":", 1)[1]: v for k, v in config.items() if k.startswith("gpuready:")}
    return parse_stack_settings({k: json.dumps(v) if isinstance(v, list) else v for k, v in values.items()})


def scales_text(spec: GpuPoolSpec) -> str:
    """``yes <min>-><max> nodes``, and how the nodes come where a plain pending pod does not make them (a queued
    pool: through its ProvisioningRequest)."""
    via = f" {QUEUED_VIA}" if spec.capacity == "queued" else ""
    return f"yes {spec.min_size}->{spec.max_size} nodes{via}"


def test_every_example_stack_is_checked() -> None:
    assert len(STACKS) >= 9


@pytest.mark.parametrize("stack", STACKS)
def test_every_pool_scales_to_max_size_for_every_shape(stack: str) -> None:
    settings = _settings(stack)
    for spec in settings.pools:
        verdict = pool_verdict(spec, settings.cluster)
        assert verdict.shapes, spec.name
        for shape in verdict.shapes:
            assert shape.failed is None, (spec.name, shape.shape.text, shape.failed)
            assert shape.autoscaler.max_nodes == spec.max_size, (spec.name, shape.shape.text)
        assert verdict.text == scales_text(spec)


@pytest.mark.parametrize("stack", [s for s in STACKS if (GOLDEN / f"plan-{s}.json").is_file()])
def test_the_golden_plan_says_every_pool_scales(stack: str) -> None:
    plan = json.loads((GOLDEN / f"plan-{stack}.json").read_text("utf-8"))
    pools = {p["name"]: p for p in plan["stdout"]["pools"]}
    settings = _settings(stack)
    assert set(pools) == {spec.name for spec in settings.pools}
    for spec in settings.pools:
        assert pools[spec.name]["scales"] == scales_text(spec)
