"""Parse pool specs from stack config (camelCase YAML/JSON data) into ``GpuPoolSpec``. Pure.

Strict: every pool is checked against the config model (``config_model.pool_model.PoolConfig``: unknown keys,
wrong types, sharing by mode; a valid pool by its shape alone, without pydantic: ``config_model.fast``), then by
the domain rules as its spec is made (``pool_rules``, once per pool); every problem of every pool is reported, and
nothing is built unless everything is valid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from gpuready.core.clouds.registry import Cloud, cloud_names
from gpuready.core.config_model import fast
from gpuready.core.config_model.forms import OMIT, StandIn
from gpuready.core.config_model.pool_values import POOL_KEYS, SHARING_KEYS, PoolValues
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.scale_path.verdict import scale_problems
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.suggest import closest
from gpuready.errors import ConfigError, Problem, SpecError

__all__ = ["POOL_KEYS", "parse_pools"]


def parse_pools(
    raw: object,
    cloud: Cloud,
    path: str = "nodePools",
    cluster: ClusterFacts | None = DEFAULT_CLUSTER,
    conventions: Conventions = DEFAULT_CONVENTIONS,
) -> tuple[GpuPoolSpec, ...]:
    """Parse and validate every pool in ``raw`` (a list of mappings), each carrying the stack's ``conventions`` (its
    GPU taint and labels); raise ``ConfigError`` listing all problems.
    A valid pool must also scale: a pending pod of every shape it advertises becomes a node it runs on, in a
    cluster as ``cluster`` declares it (``pool_scale_problems``; None: the caller checks that itself, as the stack
    settings do after the pools' other stack-level checks)."""
    if cloud not in cloud_names():
        raise ConfigError.one("cloud", "unknown cloud", cloud, cloud_names())
    if not isinstance(raw, list) or not raw:
        raise ConfigError.one(path, "must be a non-empty list of pools", raw, (), "see docs/pool-keys.md")
    problems: list[Problem] = []
    pools: list[GpuPoolSpec] = []
    for index, entry in enumerate(raw):
        where = f"{path}[{index}]"
        try:
            pools.append(_pool(entry, where, _builder(cloud, where, conventions)))
        except ConfigError as error:
            problems.extend(error.problems)
    names = [str(e["name"]) for e in raw if isinstance(e, Mapping) and isinstance(e.get("name"), str)]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(Problem(path, "pool names must be unique", name))
    if not problems and cluster is not None:
        problems.extend(pool_scale_problems(pools, cluster, path))
    if problems:
        raise ConfigError(problems)
    return tuple(pools)


def pool_scale_problems(pools: Sequence[GpuPoolSpec], cluster: ClusterFacts, path: str) -> list[Problem]:
    """Why pending pods of some shape of each pool never run there, under ``path[index]``."""
    problems: list[Problem] = []
    for index, spec in enumerate(pools):
        found = scale_problems(spec, cluster)
        if found:
            problems.extend(SpecError(found).under(f"{path}[{index}]").problems)
    return problems


def _pool(entry: object, where: str, build: Callable[[PoolValues], GpuPoolSpec]) -> GpuPoolSpec:
    """One pool's spec: by its shape (``fast``) when it is valid, else by the pydantic model, which words every
    problem (``all_problems.validated``)."""

    def slow() -> GpuPoolSpec:
        from gpuready.core.config_model.all_problems import validated  # noqa: PLC0415 - pydantic words a refused pool
        from gpuready.core.config_model.pool_model import PoolConfig  # noqa: PLC0415 - as validated

        return validated(PoolConfig, entry, where, build, STAND_INS)

    return fast.validated("PoolConfig", entry, build, slow)


def _builder(cloud: Cloud, where: str, conventions: Conventions) -> Callable[[PoolValues], GpuPoolSpec]:
    def build(entry: PoolValues) -> GpuPoolSpec:
        try:
            return entry.spec(cloud, conventions)
        except SpecError as error:
            raise error.under(where) from None

    return build


def _size(entry: Mapping[str, object], key: str) -> int:
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def _sharing(entry: Mapping[str, object], value: object) -> object:
    """An unknown sharing mode: check the rest of ``sharing`` as the closest mode, or else as the first mode whose
    form takes every key given (``replicas`` -> time-slicing), so a bad ``replicas`` is not hidden."""
    if not isinstance(value, Mapping) or not isinstance(value.get("mode"), str) or value["mode"] in SHARING_KEYS:
        return OMIT
    given = {str(k) for k in value} | {"mode"}
    mode = closest(str(value["mode"]), SHARING_KEYS) or next((m for m, k in SHARING_KEYS.items() if given <= k), None)
    return OMIT if mode is None else {**value, "mode": mode}


STAND_INS: Mapping[str, StandIn] = {
    "name": lambda entry, value: "pool",
    "minSize": lambda entry, value: 0,
    "maxSize": lambda entry, value: max(1, _size(entry, "minSize"), _size(entry, "desiredSize")),
    "sharing": _sharing,
    # No GPU model is named "?": the GPUs stay unresolved (nothing is guessed about them), and no "instanceType is
    # required" is said of a pool that gave its requirements, only broken ones.
    "gpuRequirements": lambda entry, value: {"model": "?", "count": 1},
}
"""What a broken key is validated as, so the rules still check the pool's other keys (``all_problems``): sizes
that no size rule objects to, a name every cloud accepts, the closest sharing mode, GPU requirements that resolve
to nothing. Problems on these keys
themselves come from the shape check only."""
