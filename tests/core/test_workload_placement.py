"""Workload placement (issue #6): bin-packing scheduler, pack groups, spreading by host and zone."""

from __future__ import annotations

from typing import Any

import kubernetes_validate
import pytest

from gpuready.core.specs import GpuPoolSpec
from gpuready.core.workload import gpu_workload
from gpuready.core.workload_placement import BINPACK_SCHEDULER, PACK_GROUP_LABEL, Placement
from gpuready.errors import SpecError

K8S = "1.33"
POOL = GpuPoolSpec(cloud="eks", name="l4", instance_type="g6.12xlarge", min_size=0, max_size=2)
APP = {"app": "infer"}


@pytest.mark.parametrize(
    ("placement", "expected"),
    [
        (Placement(), {}),
        (Placement(scheduler_name=BINPACK_SCHEDULER), {"schedulerName": "gpu-binpack"}),
        (
            Placement(scheduler_name=BINPACK_SCHEDULER, pack_group="job-7"),
            {
                "schedulerName": "gpu-binpack",
                "affinity": {
                    "podAffinity": {
                        "preferredDuringSchedulingIgnoredDuringExecution": [
                            {
                                "weight": 100,
                                "podAffinityTerm": {
                                    "labelSelector": {"matchLabels": {PACK_GROUP_LABEL: "job-7"}},
                                    "topologyKey": "kubernetes.io/hostname",
                                },
                            }
                        ]
                    }
                },
            },
        ),
        (
            Placement(spread_by_host=True, selector=APP),
            {
                "affinity": {
                    "podAntiAffinity": {
                        "requiredDuringSchedulingIgnoredDuringExecution": [
                            {"labelSelector": {"matchLabels": APP}, "topologyKey": "kubernetes.io/hostname"}
                        ]
                    }
                }
            },
        ),
        (
            Placement(spread_by_zone=True, selector=APP),
            {
                "topologySpreadConstraints": [
                    {
                        "maxSkew": 1,
                        "topologyKey": "topology.kubernetes.io/zone",
                        "whenUnsatisfiable": "ScheduleAnyway",
                        "labelSelector": {"matchLabels": APP},
                    }
                ]
            },
        ),
    ],
)
def test_placement_fields(placement: Placement, expected: dict[str, Any]) -> None:
    assert placement.pod_spec() == expected
    fragment = gpu_workload(POOL, 1, placement=placement)
    spec = fragment.pod_spec()
    assert {k: v for k, v in spec.items() if k not in ("nodeSelector", "tolerations")} == expected
    assert spec["nodeSelector"] == {"gpuready.io/pool": "l4"}
    labels = {**APP, **fragment.pod_labels()}
    pod = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": "w", "labels": labels},
        "spec": {**spec, "containers": [fragment.container({"name": "c", "image": "busybox"})]},
    }
    kubernetes_validate.validate(pod, K8S, strict=True)


def test_pack_group_label_goes_on_the_pods() -> None:
    assert Placement(pack_group="job-7").pod_labels() == {PACK_GROUP_LABEL: "job-7"}
    assert Placement(spread_by_zone=True, selector=APP).pod_labels() == {}


@pytest.mark.parametrize(
    ("kwargs", "path", "words"),
    [
        ({"scheduler_name": "GPU Binpack"}, "placement.schedulerName", "not a scheduler name"),
        ({"scheduler_name": ""}, "placement.schedulerName", "not a scheduler name"),
        ({"pack_group": "bad group!"}, "placement.packGroup", "valid label value"),
        ({"pack_group": "j", "spread_by_host": True, "selector": APP}, "placement", "contradict"),
        ({"spread_by_host": True}, "placement.selector", "pod labels"),
        ({"spread_by_zone": True}, "placement.selector", "pod labels"),
        ({"spread_by_zone": True, "selector": {"app": "not ok!"}}, "placement.selector.app", "label value"),
    ],
)
def test_bad_placements_are_refused_with_path_and_hint(kwargs: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(SpecError) as raised:
        Placement(**kwargs)
    problem = raised.value.problems[0]
    assert problem.path == path and words in problem.problem
    assert problem.hint or problem.allowed or problem.value is not None
