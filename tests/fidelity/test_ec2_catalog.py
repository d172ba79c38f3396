"""gpuready's EKS instance catalog against EC2 DescribeInstanceTypes data, read two ways.

Sources:

* ``moto/ec2/resources/instance_types.json.gz`` of the installed moto (5.2.5): moto's bundled copy of EC2
  DescribeInstanceTypes, read directly;
* ``ec2.describe_instance_types`` answered by moto's server (``ThreadedMotoServer``), through boto3 and
  botocore's EC2 model, in batches of at most 100 types (the API's limit per call).

For every ``EKS_INSTANCE_TYPES`` entry: the GPU name (and, for V100/A100, memory) maps to the catalog
model, the device count (``LogicalGpuCount``) equals ``gpus``, the partition size equals ``gpu_fraction``
(fractional G6f/Gr6f report ``Count: 0``), the memory per device is the model's ``memory_mib`` times the
fraction, and
``ProcessorInfo.SupportedArchitectures`` contains the catalog architecture.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import boto3  # type: ignore[import-untyped]  # no stubs installed
import moto
import pytest
from moto.server import ThreadedMotoServer

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.catalog.instance_types import InstanceType
from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from gpuready.eks.catalog_exclusions import EXCLUDED

BUNDLED_PATH = Path(moto.__file__).parent / "ec2" / "resources" / "instance_types.json.gz"
BUNDLED: Mapping[str, Any] = json.loads(gzip.decompress(BUNDLED_PATH.read_bytes()))
MAX_TYPES_PER_CALL = 100

GPU_NAME_TO_MODEL: Mapping[str, str] = {
    "T4": "t4",
    "T4g": "t4g",
    "A10G": "a10g",
    "L4": "l4",
    "L40S": "l40s",
    "H100": "h100",
    "H200": "h200",
    "B200": "b200",
    "B300": "b300",
    "RTX PRO 4500": "rtxpro4500",
    "RTX PRO Server 6000": "rtxpro6000",
}
GPU_NAME_AND_MIB_TO_MODEL: Mapping[tuple[str, int], str] = {
    ("V100", 32768): "v100-32gb",
    ("A100", 40960): "a100",
    ("A100", 81920): "a100-80gb",
}
"""EC2 names V100 and A100 the same whatever their memory; the memory tells the catalog models apart."""


def catalog_model(gpu: Mapping[str, Any]) -> str | None:
    """The catalog model key for one EC2 ``GpuInfo.Gpus`` entry, or None when gpuready has no such model."""
    name, mib = gpu["Name"], gpu["MemoryInfo"]["SizeInMiB"]
    return GPU_NAME_TO_MODEL.get(name) or GPU_NAME_AND_MIB_TO_MODEL.get((name, mib))


def problems(entry: InstanceType, info: Mapping[str, Any]) -> list[str]:
    """How EC2's description of ``entry`` disagrees with the catalog."""
    gpus = info.get("GpuInfo", {}).get("Gpus", [])
    if len(gpus) != 1:
        return [f"expected one kind of GPU, EC2 lists {gpus}"]
    (gpu,) = gpus
    found = []
    if gpu["Manufacturer"] != "NVIDIA":
        found.append(f"manufacturer {gpu['Manufacturer']}")
    if catalog_model(gpu) != entry.gpu:
        found.append(f"GPU {gpu['Name']} {gpu['MemoryInfo']['SizeInMiB']} MiB is {catalog_model(gpu)}, not {entry.gpu}")
    if gpu["LogicalGpuCount"] != entry.gpus:
        found.append(f"{gpu['LogicalGpuCount']} GPU devices, catalog says {entry.gpus}")
    if gpu["Count"] != (entry.gpus if entry.gpu_fraction == 1.0 else 0):
        found.append(f"Count {gpu['Count']} for {entry.gpus} x {entry.gpu_fraction} GPU")
    if gpu.get("GpuPartitionSize", 1.0) != entry.gpu_fraction:
        found.append(f"partition {gpu.get('GpuPartitionSize')}, catalog says {entry.gpu_fraction}")
    expected_mib = round(GPU_MODELS[entry.gpu].memory_mib * entry.gpu_fraction)
    if gpu["MemoryInfo"]["SizeInMiB"] != expected_mib:
        found.append(
            f"{gpu['MemoryInfo']['SizeInMiB']} MiB per GPU, {entry.gpu} x {entry.gpu_fraction} says {expected_mib}"
        )
    if entry.arch not in info["ProcessorInfo"]["SupportedArchitectures"]:
        found.append(f"architectures {info['ProcessorInfo']['SupportedArchitectures']} lack {entry.arch}")
    return found


@pytest.fixture(scope="module")
def described() -> Iterator[dict[str, Any]]:
    """``describe_instance_types`` for every catalog entry, answered by a moto server started for this module."""
    with pytest.MonkeyPatch.context() as env:
        for key, value in {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_CONFIG_FILE": "/nonexistent",
            "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
        }.items():
            env.setenv(key, value)
        for key in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_EC2"):
            env.delenv(key, raising=False)
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        try:
            host, port = server.get_host_and_port()
            ec2 = boto3.client("ec2", region_name="us-east-1", endpoint_url=f"http://{host}:{port}")
            names = sorted(EKS_INSTANCE_TYPES)
            answers: dict[str, Any] = {}
            for start in range(0, len(names), MAX_TYPES_PER_CALL):
                batch = names[start : start + MAX_TYPES_PER_CALL]
                response = ec2.describe_instance_types(InstanceTypes=batch)
                assert "NextToken" not in response
                answers.update({t["InstanceType"]: t for t in response["InstanceTypes"]})
            yield answers
        finally:
            server.stop()


def test_the_bundled_data_is_the_one_cited() -> None:
    assert BUNDLED_PATH.is_file()
    assert len(BUNDLED) > 1000


def test_every_gpu_model_in_the_map_is_a_catalog_model() -> None:
    assert {*GPU_NAME_TO_MODEL.values(), *GPU_NAME_AND_MIB_TO_MODEL.values()} <= set(GPU_MODELS)
    assert {t.gpu for t in EKS_INSTANCE_TYPES.values()} <= {
        *GPU_NAME_TO_MODEL.values(),
        *GPU_NAME_AND_MIB_TO_MODEL.values(),
    }


@pytest.mark.parametrize("name", sorted(EKS_INSTANCE_TYPES))
def test_catalog_entry_matches_bundled_data(name: str) -> None:
    assert name in BUNDLED, f"{name} is not in moto's EC2 data"
    assert problems(EKS_INSTANCE_TYPES[name], BUNDLED[name]) == []


def test_every_catalog_entry_matches_describe_instance_types(described: dict[str, Any]) -> None:
    assert set(described) == set(EKS_INSTANCE_TYPES)
    found = {name: problems(entry, described[name]) for name, entry in EKS_INSTANCE_TYPES.items()}
    assert {name: p for name, p in found.items() if p} == {}


def test_describe_instance_types_agrees_with_the_bundled_data(described: dict[str, Any]) -> None:
    for name, info in described.items():
        assert info["GpuInfo"] == BUNDLED[name]["GpuInfo"], name
        assert (
            info["ProcessorInfo"]["SupportedArchitectures"] == BUNDLED[name]["ProcessorInfo"]["SupportedArchitectures"]
        )


def nvidia_gpu_types(data: Mapping[str, Any]) -> set[str]:
    """Every instance type of ``data`` with an NVIDIA GPU, whole or fractional."""
    return {
        name
        for name, info in data.items()
        if any(g["Manufacturer"] == "NVIDIA" for g in info.get("GpuInfo", {}).get("Gpus", []))
    }


def test_every_nvidia_gpu_type_in_the_locked_data_is_listed_or_excluded_with_a_reason() -> None:
    """Fails when a moto upgrade brings a new NVIDIA GPU type: list it in the catalog or exclude it, saying why."""
    unaccounted = nvidia_gpu_types(BUNDLED) - set(EKS_INSTANCE_TYPES) - set(EXCLUDED)
    assert sorted(unaccounted) == []
    assert all(reason.strip() for reason in EXCLUDED.values())
    assert not set(EXCLUDED) & set(EKS_INSTANCE_TYPES)
    assert set(EXCLUDED) <= nvidia_gpu_types(BUNDLED), "an exclusion for a type the data no longer has"


def test_the_completeness_check_sees_a_new_type() -> None:
    """The check above over data with one more NVIDIA type than the catalog knows."""
    g6 = BUNDLED["g6.xlarge"]
    grown = {**BUNDLED, "g9z.xlarge": g6}
    assert nvidia_gpu_types(grown) - set(EKS_INSTANCE_TYPES) - set(EXCLUDED) == {"g9z.xlarge"}


@pytest.mark.parametrize(
    ("name", "fraction", "mib"),
    [
        ("g6f.large", 0.125, 2861),
        ("g6f.2xlarge", 0.25, 5722),
        ("g6f.4xlarge", 0.5, 11444),
        ("gr6f.4xlarge", 0.5, 11444),
    ],
)
def test_fractional_l4_types_are_one_device_of_a_share_of_an_l4(name: str, fraction: float, mib: int) -> None:
    entry = EKS_INSTANCE_TYPES[name]
    assert (entry.gpu, entry.gpus, entry.gpu_fraction) == ("l4", 1, fraction)
    assert BUNDLED[name]["GpuInfo"]["Gpus"][0]["MemoryInfo"]["SizeInMiB"] == mib
