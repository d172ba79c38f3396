"""The stack program's config contract: Pulumi.yaml declarations, what ``gpuready.stack_program.config`` reads, and the
example stacks under ``stacks/``.

The example stacks are read the way ``gpuready plan`` and the engine read them (``load_stack_config``) and
turned into settings by the program's own ``program_config.load`` under the SDK's real ``pulumi.Config``.
"""

from __future__ import annotations

import contextvars
import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from pulumi.runtime import set_all_config

from gpuready.core.clouds.registry import cloud_profiles
from gpuready.core.config_model.settings_model import pulumi_types
from gpuready.core.stack_settings import NS, StackSettings
from gpuready.errors import ConfigError
from gpuready.offline.project import ConfigDeclaration, load_project
from gpuready.offline.pulumi_config import load_stack_config, parse_stack_document

REQUIRED_BY_CLOUD = {p.name: p.settings.required_keys() for p in cloud_profiles()}
ROOT = Path(__file__).resolve().parents[2]
PROJECT = load_project(ROOT)
EXAMPLE_STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in ROOT.glob("stacks/Pulumi.*.yaml"))
RAW_DECLARATIONS: dict[str, Any] = yaml.safe_load((ROOT / "Pulumi.yaml").read_text(encoding="utf-8"))["config"]
DECLARATIONS: dict[str, ConfigDeclaration] = {d.key: d for d in PROJECT.config}


def _load_program_config_module() -> ModuleType:
    """``gpuready.stack_program.config`` under a private name (a module of its own, patched freely)."""
    spec = importlib.util.spec_from_file_location(
        "gpuready_tests_program_config", ROOT / "components/gpuready/stack_program/config.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PROGRAM_CONFIG = _load_program_config_module()


class RecordingConfig:
    """Stands in for ``pulumi.Config``: serves values from a config bag and records every key read."""

    reads: list[tuple[str, str]] = []

    def __init__(self, name: str, values: Mapping[str, str]) -> None:
        self.name = name
        self.values = values

    def get(self, key: str, *args: Any, **kwargs: Any) -> str | None:
        RecordingConfig.reads.append((self.name, key))
        return self.values.get(f"{self.name}:{key}")

    def __getattr__(self, method: str) -> Any:
        raise AssertionError(f"program_config.py calls pulumi.Config.{method}, which this contract does not cover")


def bag(stack: str) -> dict[str, str]:
    return dict(load_stack_config(PROJECT, stack).values)


def load_settings(config: Mapping[str, str]) -> StackSettings:
    """``program_config.load()`` against the SDK's real ``pulumi.Config``, in a context of its own."""

    def load() -> StackSettings:
        set_all_config(dict(config), [])
        settings = PROGRAM_CONFIG.load()
        assert isinstance(settings, StackSettings)
        return settings

    return contextvars.copy_context().run(load)


def test_there_are_example_stacks_for_every_cloud() -> None:
    assert {"eks-dev", "aks-dev", "gke-dev"} <= set(EXAMPLE_STACKS)


# --- Pulumi.yaml <-> program_config.py ----------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(RAW_DECLARATIONS))
def test_every_project_config_key_is_typed_and_described(key: str) -> None:
    raw = RAW_DECLARATIONS[key]
    assert isinstance(raw, dict), f"{key} uses the untyped shorthand"
    assert raw.get("type") in ("string", "integer", "boolean", "array")
    if raw["type"] == "array":
        assert raw.get("items", {}).get("type") == "string"
    assert isinstance(raw.get("description"), str) and raw["description"].strip()
    declaration = DECLARATIONS[key]
    assert declaration.full_key == f"{NS}:{key}"
    assert declaration.type == raw["type"]


def test_project_namespace_is_the_program_s() -> None:
    assert PROJECT.name == NS
    assert PROJECT.program_dir.resolve() == (ROOT / "stacks").resolve()
    assert PROJECT.stack_config_dir.resolve() == (ROOT / "stacks").resolve()


def test_program_config_reads_exactly_the_declared_keys_with_their_declared_types(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    values = bag("eks-dev")
    monkeypatch.setattr(RecordingConfig, "reads", [])
    monkeypatch.setattr(PROGRAM_CONFIG.pulumi, "Config", lambda name: RecordingConfig(name, values))
    PROGRAM_CONFIG.load()
    namespaces = {name for name, _ in RecordingConfig.reads}
    read = [key for _, key in RecordingConfig.reads]
    assert namespaces == {NS}
    assert len(read) == len(set(read)), "a key is read twice"
    assert set(read) == set(DECLARATIONS)

    assert {key: d.type for key, d in DECLARATIONS.items()} == pulumi_types()


def test_every_key_a_cloud_requires_is_declared_with_an_empty_default() -> None:
    for cloud, keys in REQUIRED_BY_CLOUD.items():
        for key in keys:
            declaration = DECLARATIONS[key]
            assert declaration.default in ("", []), (cloud, key)
            assert cloud.upper() in declaration.description or cloud in declaration.description


def test_keys_without_default_are_the_ones_every_stack_needs() -> None:
    required = {key for key, d in DECLARATIONS.items() if d.default is None and d.value is None}
    assert required == {"cloud", "clusterName", "nodePools"}


# --- the example stacks ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_example_stack_sets_every_required_key(stack: str) -> None:
    path = PROJECT.stack_file(stack)
    entries = parse_stack_document(path.read_text(encoding="utf-8"), str(path))
    keys = {key.removeprefix(f"{NS}:") for key in entries if key.startswith(f"{NS}:")}
    required = {key for key, d in DECLARATIONS.items() if d.default is None and d.value is None}
    assert required <= keys, required - keys
    by_cloud: dict[object, tuple[str, ...]] = {cloud: keys for cloud, keys in REQUIRED_BY_CLOUD.items()}
    cloud_keys = set(by_cloud[entries[f"{NS}:cloud"].content])
    assert cloud_keys <= keys, cloud_keys - keys
    for key in required | cloud_keys:
        assert entries[f"{NS}:{key}"].content not in ("", [], None), key
    # Only declared gpuready keys (a typo would silently be ignored by the program).
    assert keys <= set(DECLARATIONS), keys - set(DECLARATIONS)


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_example_stack_passes_the_engine_type_checks(stack: str) -> None:
    values = bag(stack)
    for key, declaration in DECLARATIONS.items():
        value = values[declaration.full_key]
        if declaration.type == "array":
            assert isinstance(json.loads(value), list), key
        else:
            assert isinstance(value, str), key


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_example_stack_pool_list_parses_into_specs(stack: str) -> None:
    settings = load_settings(bag(stack))
    assert settings.cloud == stack.split("-", maxsplit=1)[0]
    assert settings.pools
    assert len({p.name for p in settings.pools}) == len(settings.pools)
    assert {p.cloud for p in settings.pools} == {settings.cloud}
    assert settings.cloud_settings is not None
    wiring = settings.cloud_settings.stack_values()
    for key in REQUIRED_BY_CLOUD[settings.cloud]:
        assert wiring[key], key


@pytest.mark.parametrize("stack", EXAMPLE_STACKS)
def test_example_stack_has_a_mig_pool_and_a_shared_pool(stack: str) -> None:
    pools = load_settings(bag(stack)).pools
    if {p.advertise for p in pools} == {"dra"}:
        # A DRA stack shares GPUs by claims, not pool sharing, and has no MIG manager (issue #15): whole GPUs.
        assert {p.sharing_mode for p in pools} == {"none"}
        return
    if all(p.fabric is not None for p in pools):
        # A multi-node training stack (issue #30): whole GPUs on nodes joined by their fabric.
        assert {p.sharing_mode for p in pools} == {"none"}
        return
    modes = {p.name: p.sharing_mode for p in pools}
    if any(p.reservation is not None for p in pools):
        # A capacity stack (issue #28) shows how pools get capacity: a reserved pool of whole GPUs beside a shared one.
        assert {"time-slicing", "mps", "mig"} & set(modes.values()), modes
        return
    assert "mig" in modes.values(), modes
    assert {"time-slicing", "mps"} & set(modes.values()), modes


def test_the_example_stacks_together_show_every_sharing_mode() -> None:
    modes = {p.sharing_mode for stack in EXAMPLE_STACKS for p in load_settings(bag(stack)).pools}
    assert modes >= {"none", "time-slicing", "mps", "mig"}


def test_program_config_load_reports_every_problem_at_once() -> None:
    config = {**bag("eks-dev"), "gpuready:eksNodeRoleArn": "", "gpuready:eksSubnetIds": "[]"}
    with pytest.raises(ConfigError) as info:
        load_settings(config)
    paths = {p.path for p in info.value.problems}
    assert {"gpuready:eksNodeRoleArn", "gpuready:eksSubnetIds"} <= paths


@pytest.mark.parametrize(
    "path",
    [
        *sorted((ROOT / "components/gpuready/stack_program").glob("*.py")),
        ROOT / "components/gpuready/core/stack_settings.py",
        ROOT / "components/gpuready/core/config_model/settings_model.py",
        ROOT / "components/gpuready/core/cluster_kubeconfig.py",
        ROOT / "components/gpuready/stack_adapters.py",
    ],
    ids=lambda p: p.name,
)
def test_the_stack_program_names_no_cloud_s_key(path: Path) -> None:
    """The program reads every key through the joined model and hands each cloud its own settings model: no key
    of a cloud (``eksNodeRoleArn``, ``gke_location``...) is spelt outside its cloud's package."""
    keys = {
        spelling
        for profile in cloud_profiles()
        for name, field in profile.settings.model_fields.items()
        for spelling in (name, field.alias or name)
    }
    text = path.read_text(encoding="utf-8")
    assert sorted(key for key in keys if key in text) == []
