"""The device-plugin sharing configs a stack carries, by the name a node selects them with. Pure.

A node picks its config with the label ``nvidia.com/device-plugin.config=<name>`` (NVIDIA/k8s-device-plugin
``config-manager``), where ``<name>`` is a key of the plugin chart's ``config.map`` or of the GPU Operator's
device-plugin ConfigMap (inline ``devicePlugin.config.data``, or a ConfigMap of the stack named by
``devicePlugin.config.name``). Each is a config file (``version: v1``) whose ``sharing.timeSlicing`` or
``sharing.mps`` ``resources[]`` give the ``replicas`` of ``nvidia.com/gpu`` and whether they are renamed
(``rename``, or ``renameByDefault``: ``nvidia.com/gpu.shared``; NVIDIA/k8s-device-plugin ``api/config/v1``
``sharing.go`` / ``replicas.go``). That is what a node of a NodePool reports, whatever the config is called, so the
NodePool limit rule (``scale_path.limit_findings``) reads it here when the name is not gpuready's ``<mode>-x<N>``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from gpuready.core import yaml_text
from gpuready.core.node_names import GPU_RESOURCE
from gpuready.core.props import as_flag, as_list, as_mapping, as_number, as_text, dig
from gpuready.policy.rules.charts import DEVICE_PLUGIN, RELEASE, gpu_release
from gpuready.policy.rules.stack import CONFIG_MAP, StackResource
from gpuready.record import record

MODES = {"timeSlicing": "time-slicing", "mps": "mps"}
"""Config key -> the mode as gpuready names it."""
SOURCE_TYPES = frozenset({RELEASE, CONFIG_MAP})
"""Resource types that may carry sharing configs."""


@record(frozen=True, slots=True)
class Sharing:
    """How one config shares ``nvidia.com/gpu``."""

    mode: str
    replicas: int
    renamed: bool


def stack_sharing(resources: Sequence[StackResource]) -> dict[str, Sharing]:
    """Config name -> its sharing of ``nvidia.com/gpu``, for every readable sharing config of the stack (the first
    release to define a name wins; configs that do not share ``nvidia.com/gpu`` are left out)."""
    maps = {
        name: data
        for r in resources
        if r.type == CONFIG_MAP
        and (name := as_text(dig(r.props, "metadata", "name")))
        and (data := as_mapping(r.props.get("data"))) is not None
    }
    found: dict[str, Sharing] = {}
    for resource in resources:
        release = gpu_release(resource.type, resource.props)
        if release is None:
            continue
        if release.chart == DEVICE_PLUGIN:
            files = as_mapping(release.value("config.map"))
        else:
            files = as_mapping(release.value("devicePlugin.config.data"))
            external = as_text(release.value("devicePlugin.config.name"))
            if files is None and external:
                files = maps.get(external)
        for name, text in (files or {}).items():
            sharing = sharing_of(text)
            if sharing is not None:
                found.setdefault(str(name), sharing)
    return found


def sharing_of(text: object) -> Sharing | None:
    """The sharing of ``nvidia.com/gpu`` in one config file (YAML text), or None when it has none or is unreadable
    (``gpu-sharing-replicas-within-bounds`` reports unreadable configs)."""
    if not isinstance(text, str):
        return None
    try:
        document = yaml_text.load(text)
    except yaml.YAMLError:
        return None
    sharing = as_mapping(dig(document, "sharing")) if isinstance(document, Mapping) else None
    for key, mode in MODES.items():
        section: Mapping[str, Any] = as_mapping((sharing or {}).get(key)) or {}
        for resource in as_list(section.get("resources")):
            entry = as_mapping(resource) or {}
            replicas = as_number(entry.get("replicas"))
            if as_text(entry.get("name")) != GPU_RESOURCE or replicas is None or not float(replicas).is_integer():
                continue
            rename = as_text(entry.get("rename"))
            renamed = bool(rename and rename != GPU_RESOURCE) or as_flag(section.get("renameByDefault")) is True
            return Sharing(mode, int(replicas), renamed)
    return None
