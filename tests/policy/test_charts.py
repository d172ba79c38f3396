"""Recognising the NVIDIA charts and GPU pools, and reading engine-shaped values."""

from __future__ import annotations

import pytest
from pulumi_policy.proxy import unknown_checking_proxy

from gpuready.core.props import as_flag, as_list, as_mapping, dig, plain
from gpuready.policy.rules.charts import chart_name, gpu_release
from gpuready.policy.rules.gpu_pools import gpu_pools
from tests.policy.builders import AKS, EKS, GKE, RELEASE, aks, eks, gke


@pytest.mark.parametrize(
    ("chart", "expected"),
    [
        ("gpu-operator", "gpu-operator"),
        ("nvidia/gpu-operator", "gpu-operator"),
        ("oci://ghcr.io/nvidia/gpu-operator/charts/gpu-operator", "gpu-operator"),
        ("https://nvidia.github.io/gpu-operator/stable/gpu-operator-v26.7.0.tgz", "gpu-operator"),
        ("nvdp/nvidia-device-plugin", "nvidia-device-plugin"),
        ("https://nvidia.github.io/k8s-device-plugin/stable/nvidia-device-plugin-0.20.0.tgz", "nvidia-device-plugin"),
        ("gpu-feature-discovery", None),
        ("cert-manager", None),
    ],
)
def test_chart_names(chart: str, expected: str | None) -> None:
    assert chart_name(chart) == expected


def test_release_defaults_follow_the_charts() -> None:
    op = gpu_release(RELEASE, {"chart": "gpu-operator", "values": {}})
    assert op is not None and op.nfd_deployed and op.runs_driver and op.runs_mig_manager and op.runs_device_plugin
    dp = gpu_release(RELEASE, {"chart": "nvidia-device-plugin", "values": {}})
    assert dp is not None and not dp.nfd_deployed and not dp.runs_driver and dp.runs_device_plugin
    with_gfd = gpu_release(RELEASE, {"chart": "nvidia-device-plugin", "values": {"gfd": {"enabled": "true"}}})
    assert with_gfd is not None and with_gfd.nfd_deployed
    assert [p for p, _, _ in with_gfd.daemonset_tolerations()] == ["tolerations", "nfd.worker.tolerations"]


@pytest.mark.parametrize(
    ("type_", "props", "model"),
    [
        (EKS, eks(), "l4"),
        (EKS, eks(instanceTypes=["p3.2xlarge"]), None),
        (AKS, aks(), "a100-80gb"),
        (AKS, aks(vmSize="standard_nc24ads_a100_v4"), "a100-80gb"),  # Azure sizes are case-insensitive
        (GKE, gke(), "a100"),
        (GKE, gke(machineType="n1-standard-8", accelerator={"type": "nvidia-tesla-t4"}), "t4"),
    ],
)
def test_gpu_pools_resolve_their_gpu(type_: str, props: dict[str, object], model: str | None) -> None:
    (pool,) = gpu_pools(type_, unknown_checking_proxy(props))
    assert (pool.model.key if pool.model else None) == model


def test_value_helpers_accept_proxies_and_reject_strings() -> None:
    props = unknown_checking_proxy({"a": {"b": [1.0, {"c": "true"}]}, "s": "text"})
    assert as_mapping(props["a"]) is not None
    assert len(as_list(dig(props, "a", "b"))) == 2
    assert as_list(props["s"]) == ()
    assert as_flag(dig(props, "a", "b")[1]["c"]) is True
    assert plain(props) == {"a": {"b": [1, {"c": "true"}]}, "s": "text"}
