"""One entry of ``gpuready:nodePools`` as a light object, and the ``GpuPoolSpec`` it makes. Pure, and no pydantic:
the fast path (``fast``) builds it, and ``pool_model.PoolConfig`` (the pydantic model) subclasses it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gpuready.core.capacity import rules as capacity_rules
from gpuready.core.clouds.registry import Cloud
from gpuready.core.config_model import pool_parts_values  # noqa: F401 - the light classes of the parts, which fast builds
from gpuready.core.config_model.fast import field_aliases, field_names, tagged_keys
from gpuready.core.config_model.forms import Values
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError

POOL_KEYS = field_aliases("PoolConfig")
"""Keys a pool entry accepts."""
SHARING_KEYS: dict[str, frozenset[str]] = tagged_keys("PoolConfig", "sharing")
"""Sharing mode -> the keys its form takes (``mode`` included)."""


class PoolValues(Values, shape="PoolConfig"):
    """One pool entry as a user writes it, validated."""

    if TYPE_CHECKING:
        min_size: int | None
        provisioner: str | None

    def spec(self, cloud: Cloud, conventions: Conventions = DEFAULT_CONVENTIONS) -> GpuPoolSpec:
        """The ``GpuPoolSpec`` with the stack's ``conventions`` (validated by ``pool_rules`` as it is made; raises
        ``SpecError``).

        Field for field: every key of the model is the spec's field of the same name (``test_pool_model`` holds
        the two to one list), a sub-model gives its ``to_spec()``, a list of them a tuple; unset keys keep the
        spec's defaults."""
        given = {name: _to_spec(getattr(self, name)) for name in field_names("PoolConfig")}
        kept = {name: value for name, value in given.items() if value is not None}
        if self.min_size is not None:
            return GpuPoolSpec(cloud=cloud, conventions=conventions, **kept)
        missing = capacity_rules.missing_min_size_problems(cloud, self.provisioner)
        try:  # an absent minSize is 0: what an elastic pool needs, and a stand-in for a fixed one's other rules
            spec = GpuPoolSpec(cloud=cloud, conventions=conventions, min_size=0, **kept)
        except SpecError as error:
            raise SpecError([*missing, *error.problems]) from None
        if missing:
            raise SpecError(missing)
        return spec


def _to_spec(given: object) -> Any:
    """A config value as the spec holds it: a sub-model (which has ``to_spec``) gives the spec's value of its key.
    (Asked with ``getattr``, as a runtime-checkable protocol would ask, without the protocol's walk of its
    members at every call.)"""
    if isinstance(given, list):
        return tuple(_to_spec(item) for item in given)
    to_spec = getattr(given, "to_spec", None)
    return to_spec() if to_spec is not None else given
