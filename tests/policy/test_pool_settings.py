"""The pool-settings conventions (image, MIG, health), each one rule over the facts every cloud's reader writes:
the whole messages, with the cloud's field, value and fix taken from the facts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gpuready.core.capacity.readers import read_pools
from gpuready.policy.rules import pool_settings
from tests.policy.builders import AKS, AKS_CLUSTER, EKS, GKE, aks, eks, gke

A100_SHOWN = "1g.5gb, 1g.10gb, 2g.10gb, 3g.20gb, 4g.20gb, 7g.40gb"
NVIDIA_AMIS = (
    "AL2023_ARM_64_NVIDIA, AL2023_x86_64_NVIDIA, BOTTLEROCKET_ARM_64_NVIDIA, BOTTLEROCKET_ARM_64_NVIDIA_FIPS, "
    "BOTTLEROCKET_x86_64_NVIDIA, BOTTLEROCKET_x86_64_NVIDIA_FIPS"
)


@pytest.mark.parametrize(
    ("type_", "props", "expected"),
    [
        (AKS, aks(gpuInstanceProfile="MIG9g"),
         ["gpuInstanceProfile: unknown MIG profile; got 'MIG9g'. Allowed: MIG1g, MIG2g, MIG3g, MIG4g, MIG7g"]),
        (AKS, aks(gpuInstanceProfile="MIG4g"), []),
        (AKS, aks(vmSize="Standard_NC4as_T4_v3", gpuInstanceProfile="MIG1g"),
         ["gpuInstanceProfile: Standard_NC4as_T4_v3 carries T4 GPUs, which have no MIG; got 'MIG1g'. Remove "
          "gpuInstanceProfile or use an A100/H100/H200 VM size"]),
        (AKS, aks(vmSize="Standard_X_unknown", gpuInstanceProfile="MIG1g"), []),  # the GPU is not known: no judging
        (AKS_CLUSTER, {"agentPoolProfiles": [{**aks(gpuInstanceProfile="MIG9g"), "name": "a100"}]},
         ["agentPoolProfiles[0].gpuInstanceProfile: unknown MIG profile; got 'MIG9g'. Allowed: MIG1g, MIG2g, MIG3g, "
          "MIG4g, MIG7g"]),
        (GKE, gke(accelerator={"gpuPartitionSize": "2g.20gb"}),
         [f"nodeConfig.guestAccelerators[0].gpuPartitionSize: A100 has no MIG profile '2g.20gb'. "
          f"Allowed: {A100_SHOWN}"]),
        (GKE, gke(accelerator={"gpuPartitionSize": "1g.5gb+me"}), []),  # accepted as before, though not listed
        (GKE, gke(machineType="g2-standard-8", accelerator={"type": "nvidia-l4", "gpuPartitionSize": "1g.5gb"}),
         ["nodeConfig.guestAccelerators[0].gpuPartitionSize: GKE cannot partition L4 GPUs; got '1g.5gb'. Remove "
          "gpuPartitionSize"]),
        (EKS, eks(instanceTypes=["p5.48xlarge"]), []),  # a node group has no MIG field of its cloud's
    ],
)  # fmt: skip
def test_one_mig_rule_words_every_cloud_s_setting(type_: str, props: dict[str, Any], expected: list[str]) -> None:
    assert [m for pool in read_pools(type_, props) for m in pool_settings.mig_problems(pool)] == expected


def test_a_profile_name_the_gpu_lacks_is_worded_alike_on_every_cloud() -> None:
    """AKS offers every one of its names on the catalog's MIG GPUs: a GPU offering fewer is made up here."""
    (pool,) = read_pools(AKS, aks(gpuInstanceProfile="MIG4g"))
    (mig,) = pool.mig
    fewer = replace(pool, mig=(replace(mig, offered=("MIG1g", "MIG7g")),))
    assert pool_settings.mig_problems(fewer) == [
        "gpuInstanceProfile: A100-80GB has no MIG profile 'MIG4g'. Allowed: MIG1g, MIG7g"
    ]


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        (eks(amiType="AL2_x86_64_GPU"),
         ["amiType: 'AL2_x86_64_GPU' is the deprecated Amazon Linux 2 GPU AMI; EKS stopped publishing AL2 AMIs on "
          "2025-11-26 (awslabs/amazon-eks-ami#2545). Use 'AL2023_x86_64_NVIDIA' (or the BOTTLEROCKET_*_NVIDIA type)"]),
        (eks(amiType="AL2023_x86_64_STANDARD"),
         ["amiType: 'AL2023_x86_64_STANDARD' has no NVIDIA driver, so the GPUs of g6.xlarge are never usable. Use "
          f"'AL2023_x86_64_NVIDIA' (allowed: {NVIDIA_AMIS})"]),
        (eks(amiType=None),
         ["amiType: not set for GPU instance types g6.xlarge; EKS then picks a standard AMI. Set amiType: "
          "'AL2023_x86_64_NVIDIA'"]),
        (eks(instanceTypes=["g5g.xlarge"], amiType="AL2023_x86_64_NVIDIA"),
         ["amiType: 'AL2023_x86_64_NVIDIA' is for x86_64, but g5g.xlarge is arm64. Use 'AL2023_ARM_64_NVIDIA'"]),
        (eks(amiType=None, launchTemplate={"id": "lt-1", "version": "1"}), []),
        (eks(amiType="CUSTOM"), []),
        (eks(amiType="BOTTLEROCKET_x86_64_NVIDIA"), []),
    ],
)  # fmt: skip
def test_one_image_rule_words_the_cloud_s_image(props: dict[str, Any], expected: list[str]) -> None:
    assert [m for pool in read_pools(EKS, props) for m in pool_settings.image_problems(pool)] == expected


@pytest.mark.parametrize(
    ("type_", "props", "gap"),
    [
        (AKS, aks(gpuProfile={"driver": "None"}), "gpuProfile.driver: 'None' turns off AKS's GPU health checks"),
        (AKS_CLUSTER, {"agentPoolProfiles": [{**aks(gpuProfile={"driver": "None"}), "name": "a100"}]},
         "agentPoolProfiles[0].gpuProfile.driver: 'None' turns off AKS's GPU health checks"),
        (AKS, aks(), ""),
        (GKE, gke(accelerator={"gpuDriverInstallationConfig": {"gpuDriverVersion": "INSTALLATION_DISABLED"}}), ""),
    ],
)  # fmt: skip
def test_one_health_rule_names_a_pool_without_its_cloud_s_checks(type_: str, props: dict[str, Any], gap: str) -> None:
    (pool,) = read_pools(type_, props)
    found = pool_settings.health_gap(pool)
    assert found.startswith(gap) and (found == "") == (gap == "")
    assert not found or found.endswith(f"Watch the pool another way: {pool_settings.HEALTH_ALTERNATIVES}")
