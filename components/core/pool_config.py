"""Parse pool specs from stack config (camelCase YAML/JSON data) into ``GpuPoolSpec``. Pure.

Strict: every pool is checked against the config model (``config_model.pool_model.PoolConfig``: unknown keys,
wrong types, sharing by mode), then by the domain rules as its spec is made (``pool_rules``, once per pool);
every problem of every pool is reported, and nothing is built unless everything is valid.
"""

from __future__ import annotations

from collections.abc import Mapping

from components.core.clouds.registry import CLOUDS, Cloud
from components.core.config_model.pool_model import POOL_KEYS, PoolConfig
from components.core.config_model.problems import validate
from components.core.specs import GpuPoolSpec
from components.errors import ConfigError, Problem, SpecError

__all__ = ["POOL_KEYS", "parse_pools"]


def parse_pools(raw: object, cloud: Cloud, path: str = "nodePools") -> tuple[GpuPoolSpec, ...]:
    """Parse and validate every pool in ``raw`` (a list of mappings); raise ``ConfigError`` listing all problems."""
    if cloud not in CLOUDS:
        raise ConfigError.one("cloud", "unknown cloud", cloud, CLOUDS)
    if not isinstance(raw, list) or not raw:
        raise ConfigError.one(path, "must be a non-empty list of pools", raw, (), "see README 'Pool spec'")
    problems: list[Problem] = []
    pools: list[GpuPoolSpec] = []
    for index, entry in enumerate(raw):
        where = f"{path}[{index}]"
        try:
            pools.append(validate(PoolConfig, entry, where).spec(cloud))
        except ConfigError as error:
            problems.extend(error.problems)
        except SpecError as error:
            problems.extend(error.under(where).problems)
    names = [str(e["name"]) for e in raw if isinstance(e, Mapping) and isinstance(e.get("name"), str)]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(Problem(path, "pool names must be unique", name))
    if problems:
        raise ConfigError(problems)
    return tuple(pools)
