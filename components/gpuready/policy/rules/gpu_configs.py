"""Rules on the config files the NVIDIA charts carry as YAML strings: mig-parted layouts and device-plugin
sharing configs. Pure.

- mig-parted (GPU Operator ``migManager.config.data``, key ``config.yaml``): ``mig-configs.<name>`` is a
  list of ``{devices, mig-enabled, mig-devices: {profile: count}, device-filter}`` (NVIDIA/mig-parted
  v0.15.0 ``config-default.yaml``). Layouts are checked against gpuready's MIG tables
  (``gpuready.core.catalog.mig_profiles``), picking the table by ``device-filter`` PCI IDs when given.
- device-plugin config (plugin chart ``config.map.<name>``, operator ``devicePlugin.config.data.<name>``):
  ``sharing.timeSlicing|mps.resources[].replicas`` must be a whole number >= 2 (DP ``api/config/v1/replicas.go``);
  ``renameByDefault`` / ``failRequestsGreaterThanOne`` belong under ``sharing.*``, not ``flags``
  (NVIDIA/k8s-device-plugin#1433).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from gpuready.core import yaml_text
from gpuready.core.advertisers.extended_resources import MIG_RESOURCE_PREFIX, mig_resource_name
from gpuready.core.catalog import mig_profiles
from gpuready.core.catalog.mig_profiles import MIG_TABLES, MigTable
from gpuready.core.props import as_flag, as_list, as_mapping, as_number, as_text
from gpuready.core.sharing_rules import MAX_REPLICAS
from gpuready.policy.rules.charts import DEVICE_PLUGIN, OPERATOR, GpuRelease, gpu_release

DEFAULT_MAX_REPLICAS = MAX_REPLICAS
"""Default bound on time-slicing / MPS replicas per GPU: GKE's own maximum, a sane ceiling anywhere."""
MAX_REPLICAS_CONFIG = {
    "maxReplicas": {
        "type": "integer",
        "minimum": 2,
        "default": DEFAULT_MAX_REPLICAS,
        "description": "Most replicas (clients) per GPU allowed.",
    }
}
"""The pack config property of every rule bounding sharing replicas (``--policy-config``)."""
MIG_RESOURCES = frozenset(mig_resource_name(p) for t in MIG_TABLES.values() for p in t.profiles)
"""Every ``nvidia.com/mig-<profile>`` resource some MIG table yields under the ``mixed`` strategy."""
_SHARING_FLAGS = ("renameByDefault", "failRequestsGreaterThanOne")


def mig_parted_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Custom mig-parted layouts in ``migManager.config.data`` fit the GPUs they target."""
    release = gpu_release(resource_type, props)
    if release is None or release.chart != OPERATOR:
        return []
    problems: list[str] = []
    for field, document in _documents(release, "migManager.config.data", problems):
        if not field.endswith(".config.yaml"):
            problems.append(f"{field}: the MIG manager reads only the key 'config.yaml'. Rename the key to config.yaml")
            continue
        configs = as_mapping(document.get("mig-configs"))
        if configs is None:
            problems.append(f"{field}: no mig-configs mapping. Add mig-configs: {{<name>: [{{devices: all, ...}}]}}")
            continue
        for name, entries in configs.items():
            for index, entry in enumerate(as_list(entries)):
                problems += _layout_problems(f"{field}: mig-configs.{name}[{index}]", as_mapping(entry) or {})
    return problems


def custom_mig_configs(
    release: GpuRelease, config_maps: Mapping[str, Mapping[str, Any]] | None = None
) -> set[str] | None:
    """Names of the layouts in the operator's custom mig-parted config, or None without one. The config is
    inline (``migManager.config.data``) or a ConfigMap of the stack named by ``migManager.config.name``
    (``config_maps``: name -> data)."""
    data = as_mapping(release.value("migManager.config.data"))
    name = as_text(release.value("migManager.config.name"))
    if data is None and name and config_maps is not None:
        data = config_maps.get(name)
    text = as_text(data.get("config.yaml")) if data is not None else None
    if text is None:
        return None
    try:
        document = yaml_text.load(text)
    except yaml.YAMLError:
        return set()
    configs = as_mapping(document.get("mig-configs")) if isinstance(document, Mapping) else None
    return {str(k) for k in configs} if configs is not None else set()


def plugin_config_problems(resource_type: str, props: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Device-plugin sharing configs: whole replicas from 2 to ``maxReplicas``, existing resource names,
    sharing options where the plugin reads them."""
    release = gpu_release(resource_type, props)
    if release is None:
        return []
    limit = as_number(config.get("maxReplicas")) or DEFAULT_MAX_REPLICAS
    path = "config.map" if release.chart == DEVICE_PLUGIN else "devicePlugin.config.data"
    problems: list[str] = []
    for field, document in _documents(release, path, problems):
        flags = as_mapping(document.get("flags")) or {}
        for flag in _SHARING_FLAGS:
            if flag in flags:
                problems.append(
                    f"{field}: flags.{flag} is ignored there (NVIDIA/k8s-device-plugin#1433). "
                    f"Move it to sharing.timeSlicing.{flag}"
                )
        problems += sharing_problems(field, document, limit)
    return problems


def sharing_problems(field: str, document: Mapping[str, Any], limit: float) -> list[str]:
    """The replica bounds and resource names of one device-plugin config document (``version: v1``)."""
    problems: list[str] = []
    sharing = as_mapping(document.get("sharing")) or {}
    for mode in ("timeSlicing", "mps"):
        for index, resource in enumerate(as_list(_get(as_mapping(sharing.get(mode)), "resources"))):
            problems += _replica_problems(f"{field}: sharing.{mode}.resources[{index}]", resource, limit)
    return problems


def _documents(release: GpuRelease, path: str, problems: list[str]) -> list[tuple[str, Mapping[str, Any]]]:
    """``(field, parsed YAML mapping)`` for each string entry of the values map at ``path``."""
    data = as_mapping(release.value(path))
    if data is None:
        return []
    found = []
    for key, text in data.items():
        field = f"values.{path}.{key}"
        if not isinstance(text, str):
            problems.append(f"{field}: must be the config file as a YAML string. Write it as a multi-line string")
            continue
        try:
            document = yaml_text.load(text)
        except yaml.YAMLError as error:
            problems.append(f"{field}: not valid YAML ({str(error).splitlines()[0]}). Fix the YAML")
            continue
        if not isinstance(document, Mapping):
            problems.append(f"{field}: must be a YAML mapping with version: v1. Fix the config file")
            continue
        found.append((field, document))
    return found


def _layout_problems(where: str, entry: Mapping[str, Any]) -> list[str]:
    if as_flag(entry.get("mig-enabled")) is not True:
        return []
    devices = as_mapping(entry.get("mig-devices")) or {}
    layout: dict[str, int] = {}
    for profile, count in devices.items():
        number = as_number(count)
        if number is None or not number.is_integer():
            return [f"{where}.mig-devices.{profile}: the count must be a whole number; got {count!r}. Fix the count"]
        layout[str(profile)] = int(number)
    if not layout:
        return []
    tables = _tables_for(entry.get("device-filter"))
    verdicts = {t.family: mig_profiles.layout_problems(t, layout) for t in tables}
    if any(not found for found in verdicts.values()):
        return []
    family, found = min(verdicts.items(), key=lambda item: len(item[1]))
    target = (
        f"{family} (device-filter)" if entry.get("device-filter") is not None else f"any MIG GPU (closest: {family})"
    )
    return [f"{where}.mig-devices: {layout} does not fit {target}: {'; '.join(found)}. Use a layout of that GPU"]


def _tables_for(device_filter: object) -> list[MigTable]:
    ids = {f.upper() for f in ([device_filter] if isinstance(device_filter, str) else as_list(device_filter))}
    if not ids:
        return list(MIG_TABLES.values())
    matched = [t for t in MIG_TABLES.values() if ids & {p.upper() for p in t.pci_device_ids}]
    return matched or list(MIG_TABLES.values())


def _replica_problems(where: str, resource: object, limit: float) -> list[str]:
    mapping = as_mapping(resource) or {}
    problems = []
    name = mapping.get("name")
    if isinstance(name, str) and name.startswith(MIG_RESOURCE_PREFIX) and name not in MIG_RESOURCES:
        problems.append(
            f"{where}.name: no MIG GPU has a profile behind {name!r}. Use an existing nvidia.com/mig-<profile>"
        )
    replicas = mapping.get("replicas")
    count = as_number(replicas)
    if count is None or not count.is_integer() or not 2 <= count <= limit:
        problems.append(
            f"{where}.replicas: must be a whole number from 2 to {limit:g} (the device plugin refuses fewer than 2); "
            f"got {replicas!r}. Set replicas within bounds, or drop the entry for whole GPUs"
        )
    return problems


def _get(mapping: Mapping[str, Any] | None, key: str) -> Any:
    return mapping.get(key) if mapping is not None else None
