"""``PoolConfig``: camelCase keys only, unknown keys refused at every level, sharing discriminated by ``mode``,
taints as mappings or ``key=value:Effect`` text, no coercion; the spec it makes is validated by ``pool_rules``."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core.config_model.pool_model import POOL_KEYS, PoolConfig
from gpuready.core.config_model.pool_parts_model import MigConfig, NoSharingConfig, SharedGpuConfig
from gpuready.core.config_model.problems import validate
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import ConfigError, SpecError

BASE = {"name": "gpu", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2}


def _model(**extra: Any) -> PoolConfig:
    return validate(PoolConfig, {**BASE, **extra}, "p")


def _paths(**extra: Any) -> list[str]:
    with pytest.raises(ConfigError) as raised:
        _model(**extra)
    return sorted(p.path for p in raised.value.problems)


def test_keys_are_the_camel_case_aliases() -> None:
    assert set(POOL_KEYS) >= {"instanceType", "minSize", "maxSize", "desiredSize", "releaseVersion", "fixedName"}
    assert not any("_" in key for key in POOL_KEYS)
    with pytest.raises(ConfigError):
        validate(PoolConfig, {"name": "gpu", "instance_type": "g6.xlarge", "min_size": 0, "max_size": 2}, "p")


@pytest.mark.parametrize(
    ("extra", "path"),
    [
        ({"zzz": 1}, "p.zzz"),
        ({"gpu": {"model": "l4", "count": 1, "memory": 24}}, "p.gpu.memory"),
        ({"sharing": {"mode": "mps", "replicas": 2, "layout": "x"}}, "p.sharing.layout"),
        ({"sharing": {"mode": "none", "replicas": 2}}, "p.sharing.replicas"),
        ({"taints": [{"key": "a", "effect": "NoSchedule", "operator": "Exists"}]}, "p.taints[0].operator"),
        ({"upgrade": {"strategy": "surge", "surge": 1}}, "p.upgrade.surge"),
    ],
)
def test_unknown_keys_are_refused_at_every_level(extra: dict[str, Any], path: str) -> None:
    assert _paths(**extra) == [path]


@pytest.mark.parametrize(
    ("sharing", "member"),
    [
        ({"mode": "none"}, NoSharingConfig),
        ({"mode": "time-slicing", "replicas": 2}, SharedGpuConfig),
        ({"mode": "mps", "replicas": 2}, SharedGpuConfig),
        ({"mode": "mig", "profile": "1g.10gb"}, MigConfig),
    ],
)
def test_sharing_is_discriminated_by_mode(sharing: dict[str, Any], member: type) -> None:
    assert type(_model(sharing=sharing).sharing) is member


def test_the_spec_carries_every_value() -> None:
    spec = _model(
        instanceType="p5.48xlarge",
        capacity="spot",
        sharing={"mode": "mig", "layout": {"3g.40gb": 2}, "strategy": "mixed"},
        taints=["a=b:NoExecute", {"key": "c", "effect": "NoSchedule"}],
        labels={"team": "ml"},
        upgrade={"strategy": "rolling", "maxUnavailable": 2},
    ).spec("eks")
    assert spec.sharing == MigPartitioning(layout={"3g.40gb": 2}, strategy="mixed")
    assert spec.taints == (Taint("a", "b", "NoExecute"), Taint("c", "", "NoSchedule"))
    assert (spec.capacity, dict(spec.labels), spec.upgrade.unavailable) == ("spot", {"team": "ml"}, 2)
    assert _model(sharing={"mode": "mps", "replicas": 3}).spec("eks").sharing == GpuSharing(mode="mps", replicas=3)
    assert _model(sharing="none").spec("eks").sharing is None


def test_domain_rules_run_when_the_spec_is_made() -> None:
    model = _model(capacity="Spot", minSize=3, maxSize=2)  # the shape is fine; the values are not
    with pytest.raises(SpecError) as raised:
        model.spec("eks")
    by_path = {p.path: p for p in raised.value.problems}
    assert by_path["capacity"].hint == "did you mean 'spot'?"
    assert "minSize" in by_path
