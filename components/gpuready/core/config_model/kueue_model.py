"""``gpuready:kueue``: which pools get Kueue objects (``core.kueue.objects``). Pure."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from gpuready.core.config_model.all_problems import validated
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.kueue.objects import FlavorChoice, KueueSpec, problems
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import ConfigError, Problem, SpecError


class KueueConfig(ConfigModel):
    """``kueue``: ``{flavors: queued | all | none}``."""

    shape: ClassVar = Words("must be a mapping", "e.g. {flavors: all}")
    words: ClassVar = {"flavors": Words("unknown choice of pools", "queued (the default), all or none")}

    flavors: FlavorChoice = "queued"
    """Which pools get a Kueue ResourceFlavor: ``queued`` (flex-start and queued pools, which also get their
    ProvisioningRequestConfig and AdmissionCheck), ``all`` (every pool) or ``none``."""

    def spec(self, pools: Sequence[GpuPoolSpec], path: str) -> KueueSpec:
        made = KueueSpec(flavors=self.flavors)
        found = problems(pools, made, path)
        if found:
            raise SpecError(found)
        return made


def parse_kueue(raw: object, pools: Sequence[GpuPoolSpec], path: str = "kueue") -> KueueSpec:
    """Parse ``raw`` (a mapping); raise ``ConfigError`` listing every problem."""
    return validated(KueueConfig, raw, path, lambda config: config.spec(pools, path))


YamlText = Callable[[object, str, list[Problem], str], object]
"""The stack settings' reader of a YAML-text key: ``(raw, path, problems, hint) -> data or None``."""


def stack_kueue(raw: object, pools: Sequence[GpuPoolSpec], problems: list[Problem], yaml_text: YamlText) -> KueueSpec:
    """``gpuready:kueue`` (YAML text or data) for the stack's pools; absent: ``KueueSpec()`` (the queued pools'
    objects). Problems are added to ``problems``."""
    path = "gpuready:kueue"
    data = None if raw is None or raw == "" else yaml_text(raw, path, problems, "e.g. {flavors: all}")
    if data is None:
        return KueueSpec()
    try:
        return parse_kueue(data, pools, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return KueueSpec()
