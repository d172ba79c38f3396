"""Every valid combination of the spec choices gpuready offers, per cloud, for the fidelity tests.

The matrix crosses each catalog instance type with every image family, capacity, driver owner, GKE driver
version and a set of sharing variants (none, time-slicing, MPS, renamed/strict sharing, every MIG profile,
``all-balanced`` and a custom mixed layout), plus user labels and taints. Combinations that spec
validation rejects are skipped: the fidelity tests check what gpuready can actually emit.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud, cloud_profile
from gpuready.core.specs import (
    CAPACITIES,
    DRIVER_OWNERS,
    GpuPoolSpec,
    GpuSharing,
    MigPartitioning,
    Sharing,
)
from gpuready.core.taints import Taint
from gpuready.errors import SpecError
from gpuready.gke.catalog import GKE_ATTACHABLE
from gpuready.gke.profile import DRIVER_VERSIONS as GKE_DRIVER_VERSIONS

NAMES: dict[Cloud, str] = {"eks": "gpu-pool", "aks": "gpupool", "gke": "gpu-pool"}
USER_LABELS = {"example.com/team": "ml"}
USER_TAINTS = (Taint(key="example.com/dedicated", value="ml", effect="NoExecute"),)


def _sharing_variants(model_key: str) -> Iterator[Sharing | None]:
    yield None
    yield GpuSharing(mode="time-slicing", replicas=4)
    yield GpuSharing(mode="mps", replicas=2)
    yield GpuSharing(mode="time-slicing", replicas=8, rename_by_default=True, fail_requests_greater_than_one=True)
    table = GPU_MODELS[model_key].mig
    if table is None:
        return
    for profile in table.profiles:
        yield MigPartitioning(profile=profile)
    yield MigPartitioning(layout="all-balanced", strategy="mixed")
    yield MigPartitioning(layout=dict(table.balanced), strategy="mixed")


def _machines(cloud: Cloud) -> Iterator[tuple[str, ExplicitGpu | None]]:
    for name in cloud_profile(cloud).instance_types:
        yield name, None
    if cloud == "gke":
        for model, counts in GKE_ATTACHABLE.counts.items():
            for count in counts:
                yield f"{GKE_ATTACHABLE.machine_prefix}standard-8", ExplicitGpu(model=model, count=count)


def _try(**kwargs: object) -> GpuPoolSpec | None:
    try:
        return GpuPoolSpec(**kwargs)  # type: ignore[arg-type]
    except SpecError:
        return None


@functools.cache
def valid_specs(cloud: Cloud) -> tuple[GpuPoolSpec, ...]:
    """Every spec of the matrix for ``cloud`` that validation accepts."""
    specs: list[GpuPoolSpec] = []
    versions: tuple[str | None, ...] = (None, *GKE_DRIVER_VERSIONS) if cloud == "gke" else (None,)
    for (machine, gpu), image, capacity, driver, version in itertools.product(
        _machines(cloud), cloud_profile(cloud).images, CAPACITIES, DRIVER_OWNERS, versions
    ):
        model = gpu.model if gpu is not None else cloud_profile(cloud).instance_types[machine].gpu
        for sharing in _sharing_variants(model):
            spec = _try(
                cloud=cloud,
                name=NAMES[cloud],
                instance_type=machine,
                gpu=gpu,
                min_size=0,
                max_size=3,
                desired_size=1,
                capacity=capacity,
                image=image,
                driver=driver,
                driver_version=version,
                sharing=sharing,
                labels=USER_LABELS,
                taints=USER_TAINTS,
            )
            if spec is not None:
                specs.append(spec)
    return tuple(specs)
