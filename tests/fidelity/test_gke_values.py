"""The GKE enum strings gpuready emits against the accepted values the pulumi_gcp 10.2.0 SDK documents.

Source: the docstrings of ``pulumi_gcp/container/outputs.py`` and ``_inputs.py`` (the offline, machine-
readable copy of the provider schema). The ``NodePool*`` variants of these types carry no value list, so the
lists come from the ``Cluster*`` variants of the same fields:

* ``ClusterNodeConfigGuestAcceleratorGpuDriverInstallationConfig.gpu_driver_version``
* ``ClusterNodeConfigGuestAcceleratorGpuSharingConfig.gpu_sharing_strategy``
* ``ClusterNodeConfigTaint.effect``
* ``ClusterClusterAutoscalingAutoProvisioningDefaults.image_type`` (the only image-type list in the SDK)
* ``NodePoolAutoscaling.location_policy``
* ``ClusterClusterAutoscalingAutoProvisioningDefaultsUpgradeSettings.strategy`` (upgrade strategy)

The emitted values are the plan constants and every plan of ``tests/fidelity/spec_matrix.py``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from importlib.metadata import version
from typing import Any

import pytest
from pulumi_gcp.container import _inputs as gcp_inputs
from pulumi_gcp.container import outputs as gcp_outputs

from gpuready.core.catalog import mig_profiles
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.k8s_syntax import TAINT_EFFECTS
from gpuready.core.specs import UpgradePolicy
from gpuready.core.taints import Taint
from gpuready.gke import plan
from tests.core.conftest import build_spec
from tests.fidelity.spec_matrix import valid_specs

_QUOTED = r'`"([A-Z_]+)"`'
DOCUMENTED: dict[str, tuple[str, str, str]] = {
    "gpu_driver_version": (
        "ClusterNodeConfigGuestAcceleratorGpuDriverInstallationConfig",
        "gpu_driver_version",
        _QUOTED,
    ),
    "gpu_sharing_strategy": ("ClusterNodeConfigGuestAcceleratorGpuSharingConfig", "gpu_sharing_strategy", _QUOTED),
    "taint_effect": ("ClusterNodeConfigTaint", "effect", r"`([A-Z_]+)`"),
    "image_type": ("ClusterClusterAutoscalingAutoProvisioningDefaults", "image_type", r"(?<=[\[ ])([A-Z_]+)(?=[,\]])"),
    "location_policy": ("NodePoolAutoscaling", "location_policy", r'"([A-Z]+)" -'),
    "upgrade_strategy": (
        "ClusterClusterAutoscalingAutoProvisioningDefaultsUpgradeSettings",
        "strategy",
        r"\b(BLUE_GREEN|SURGE)\b",
    ),
}
"""Field -> (SDK type, property, regex picking the accepted values out of its docstring)."""


def documented_values(field: str, module: Any = gcp_outputs) -> set[str]:
    type_name, prop, pattern = DOCUMENTED[field]
    if module is gcp_inputs:
        type_name += "Args"
    doc = getattr(getattr(module, type_name), prop).__doc__ or ""
    return set(re.findall(pattern, doc))


def emitted_values() -> dict[str, set[str]]:
    emitted: dict[str, set[str]] = defaultdict(set)
    for spec in valid_specs("gke"):
        args = plan.node_pool_args(spec, 1)
        config = args["node_config"]
        (accelerator,) = config["guest_accelerators"]
        emitted["gpu_driver_version"].add(accelerator["gpu_driver_installation_config"]["gpu_driver_version"])
        if "gpu_sharing_config" in accelerator:
            emitted["gpu_sharing_strategy"].add(accelerator["gpu_sharing_config"]["gpu_sharing_strategy"])
        emitted["taint_effect"].update(t["effect"] for t in config["taints"])
        emitted["image_type"].add(config["image_type"])
        emitted["location_policy"].add(args["autoscaling"]["location_policy"])
        emitted["upgrade_strategy"].add(args["upgrade_settings"]["strategy"])
    for strategy in ("rolling", "blue-green"):
        upgrade = plan.upgrade_settings(build_spec("gke", upgrade=UpgradePolicy(strategy=strategy)))
        emitted["upgrade_strategy"].add(upgrade["strategy"])
    return emitted


EMITTED = emitted_values()


def test_the_sdk_is_the_one_cited() -> None:
    assert version("pulumi_gcp") == "10.2.0"
    assert gcp_outputs.__file__.endswith("pulumi_gcp/container/outputs.py")


@pytest.mark.parametrize("field", sorted(DOCUMENTED))
def test_the_docstrings_list_values(field: str) -> None:
    """Guards the regexes: each docstring yields a value list, the same in outputs.py and _inputs.py."""
    found = documented_values(field)
    assert len(found) >= 2, found
    assert documented_values(field, gcp_inputs) == found


def test_documented_values_are_the_expected_lists() -> None:
    assert documented_values("gpu_driver_version") == {
        "GPU_DRIVER_VERSION_UNSPECIFIED",
        "INSTALLATION_DISABLED",
        "DEFAULT",
        "LATEST",
    }
    assert documented_values("gpu_sharing_strategy") == {"TIME_SHARING", "MPS"}
    assert documented_values("taint_effect") == {"NO_SCHEDULE", "PREFER_NO_SCHEDULE", "NO_EXECUTE"}
    assert {"COS_CONTAINERD", "UBUNTU_CONTAINERD"} <= documented_values("image_type")
    assert documented_values("location_policy") == {"BALANCED", "ANY"}
    assert documented_values("upgrade_strategy") == {"BLUE_GREEN", "SURGE"}


@pytest.mark.parametrize("field", sorted(DOCUMENTED))
def test_every_emitted_value_is_documented(field: str) -> None:
    assert EMITTED[field], f"the matrix emits no {field}"
    assert EMITTED[field] <= documented_values(field)


def test_the_matrix_emits_every_value_gpuready_has() -> None:
    assert EMITTED["gpu_driver_version"] == {"DEFAULT", "LATEST", "INSTALLATION_DISABLED"}
    assert EMITTED["gpu_sharing_strategy"] == set(plan.SHARING_STRATEGIES.values()) == {"TIME_SHARING", "MPS"}
    assert EMITTED["image_type"] == set(plan.IMAGE_TYPES.values()) == {"COS_CONTAINERD", "UBUNTU_CONTAINERD"}
    assert "NO_SCHEDULE" in EMITTED["taint_effect"]
    assert set(plan.IMAGE_TYPES) == set(cloud_profile("gke").images)


def test_every_kubernetes_taint_effect_maps_to_a_documented_effect() -> None:
    emitted = {plan.to_gke_taint(Taint(key="k", value="v", effect=e))["effect"] for e in TAINT_EFFECTS}
    assert emitted == documented_values("taint_effect")


def test_no_deprecated_docker_image_type_is_emitted() -> None:
    assert not {"COS", "UBUNTU"} & set(plan.IMAGE_TYPES.values())


def test_gpu_partition_sizes_are_plain_mig_profiles_of_the_gpu() -> None:
    """``gpu_partition_size`` takes an NVIDIA MIG profile name (docstring points at the MIG user guide)."""
    doc = gcp_outputs.NodePoolNodeConfigGuestAccelerator.gpu_partition_size.__doc__ or ""
    assert "mig" in doc.lower()
    sizes = 0
    for spec in valid_specs("gke"):
        (accelerator,) = plan.node_pool_args(spec, 1)["node_config"]["guest_accelerators"]
        size = accelerator.get("gpu_partition_size")
        if size is None:
            continue
        table = spec.resolved.gpu.model.mig
        assert table is not None and size in table.profiles
        assert mig_profiles.is_profile_name(size) and not mig_profiles.is_media_extension(size)
        sizes += 1
    assert sizes > 0
