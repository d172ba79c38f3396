"""Parsing stack config pool entries (camelCase YAML/JSON data) into validated GpuPoolSpecs."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.core import pool_config
from gpuready.core.catalog.lookup import ExplicitGpu
from gpuready.core.clouds.registry import Cloud
from gpuready.core.specs import GpuSharing, MigPartitioning
from gpuready.core.taints import Taint
from gpuready.errors import ConfigError, Problem


def _pool(**entry: Any) -> dict[str, Any]:
    """A valid EKS pool entry as a user writes it, with ``entry`` merged in (None removes a key)."""
    pool: dict[str, Any] = {"name": "gpu", "instanceType": "g6.xlarge", "minSize": 0, "maxSize": 2}
    pool.update(entry)
    return {k: v for k, v in pool.items() if v is not None}


def _problems(raw: object, cloud: Cloud = "eks") -> tuple[Problem, ...]:
    with pytest.raises(ConfigError) as info:
        pool_config.parse_pools(raw, cloud)
    return info.value.problems


def test_every_key_is_parsed() -> None:
    (spec,) = pool_config.parse_pools(
        [
            {
                "name": "train",
                "instanceType": "g9.2xlarge",
                "minSize": 1,
                "maxSize": 4,
                "desiredSize": 2,
                "capacity": "spot",
                "image": "al2023",
                "driver": "cloud",
                "gpu": {"model": "l4", "count": 2, "arch": "x86_64"},
                "sharing": {
                    "mode": "time-slicing",
                    "replicas": 4,
                    "renameByDefault": True,
                    "failRequestsGreaterThanOne": False,
                },
                "labels": {"example.com/team": "ml"},
                "taints": [{"key": "example.com/dedicated", "value": "ml", "effect": "NoExecute"}],
            }
        ],
        "eks",
    )
    assert (spec.cloud, spec.name, spec.instance_type) == ("eks", "train", "g9.2xlarge")
    assert (spec.min_size, spec.max_size, spec.desired_size) == (1, 4, 2)
    assert (spec.capacity, spec.image, spec.driver, spec.driver_version) == ("spot", "al2023", "cloud", None)
    assert spec.gpu == ExplicitGpu("l4", 2, "x86_64")
    assert spec.sharing == GpuSharing(
        mode="time-slicing", replicas=4, rename_by_default=True, fail_requests_greater_than_one=False
    )
    assert spec.labels == {"example.com/team": "ml"}
    assert spec.taints == (Taint(key="example.com/dedicated", value="ml", effect="NoExecute"),)


def test_gke_driver_version_and_mig_keys_are_parsed() -> None:
    (spec,) = pool_config.parse_pools(
        [
            {
                "name": "a100",
                "instanceType": "a2-highgpu-1g",
                "minSize": 0,
                "maxSize": 1,
                "driverVersion": "latest",
                "sharing": {"mode": "mig", "profile": "1g.5gb", "strategy": "single"},
            }
        ],
        "gke",
    )
    assert spec.driver_version == "latest"
    assert spec.sharing == MigPartitioning(profile="1g.5gb", strategy="single")


@pytest.mark.parametrize(
    ("sharing", "parsed"),
    [
        (None, None),
        ("none", None),
        ({"mode": "mps", "replicas": 2}, GpuSharing(mode="mps", replicas=2)),
        (
            {"mode": "time-slicing", "replicas": 3, "failRequestsGreaterThanOne": True},
            GpuSharing(mode="time-slicing", replicas=3, fail_requests_greater_than_one=True),
        ),
    ],
)
def test_sharing_forms(sharing: object, parsed: GpuSharing | None) -> None:
    (spec,) = pool_config.parse_pools([_pool(sharing=sharing)], "eks")
    assert spec.sharing == parsed


@pytest.mark.parametrize(
    ("sharing", "parsed"),
    [
        ({"mode": "mig", "profile": "1g.10gb"}, MigPartitioning(profile="1g.10gb")),
        (
            {"mode": "mig", "layout": "all-balanced", "strategy": "mixed"},
            MigPartitioning(layout="all-balanced", strategy="mixed"),
        ),
        (
            {"mode": "mig", "layout": {"4g.40gb": 1, "3g.40gb": 1}, "strategy": "mixed"},
            MigPartitioning(layout={"4g.40gb": 1, "3g.40gb": 1}, strategy="mixed"),
        ),
    ],
)
def test_mig_forms(sharing: dict[str, Any], parsed: MigPartitioning) -> None:
    (spec,) = pool_config.parse_pools([_pool(instanceType="p5.48xlarge", sharing=sharing)], "eks")
    assert spec.sharing == parsed


def test_sharing_mode_none_mapping_means_no_sharing() -> None:
    (spec,) = pool_config.parse_pools([_pool(sharing={"mode": "none"})], "eks")
    assert spec.sharing is None


@pytest.mark.parametrize(
    ("taint", "parsed"),
    [
        ("dedicated=ml:NoSchedule", Taint(key="dedicated", value="ml", effect="NoSchedule")),
        ("example.com/dedicated=ml:NoExecute", Taint(key="example.com/dedicated", value="ml", effect="NoExecute")),
        ("dedicated:PreferNoSchedule", Taint(key="dedicated", value="", effect="PreferNoSchedule")),
        ("dedicated=:NoSchedule", Taint(key="dedicated", value="", effect="NoSchedule")),
        ({"key": "dedicated", "effect": "NoSchedule"}, Taint(key="dedicated", effect="NoSchedule")),
        (
            {"key": "dedicated", "value": "ml", "effect": "NoExecute"},
            Taint(key="dedicated", value="ml", effect="NoExecute"),
        ),
    ],
)
def test_taint_forms(taint: object, parsed: Taint) -> None:
    (spec,) = pool_config.parse_pools([_pool(taints=[taint])], "eks")
    assert spec.taints == (parsed,)


def test_pools_come_back_in_order() -> None:
    specs = pool_config.parse_pools(
        [_pool(name="b"), _pool(name="a", instanceType="p5.48xlarge"), _pool(name="c")], "eks"
    )
    assert [(s.name, s.resolved.gpu.model.key) for s in specs] == [("b", "l4"), ("a", "h100"), ("c", "l4")]


@pytest.mark.parametrize("cloud", ["eks", "aks", "gke"])
def test_pools_are_parsed_for_each_cloud(cloud: Cloud) -> None:
    instance_type = {"eks": "g6.xlarge", "aks": "standard_nc4as_t4_v3", "gke": "g2-standard-4"}[cloud]
    (spec,) = pool_config.parse_pools([_pool(instanceType=instance_type)], cloud)
    assert spec.cloud == cloud
    assert spec.resolved.gpu.listed


# (entry overrides, expected path, text in the rendered problem)
REFUSED = [
    # unknown keys, with did-you-mean hints
    pytest.param(
        {"instancetype": "g6.xlarge", "instanceType": None},
        "nodePools[0].instancetype",
        "did you mean 'instanceType'?",
        id="typo-instanceType",
    ),
    pytest.param({"minsize": 0}, "nodePools[0].minsize", "did you mean 'minSize'?", id="typo-minSize"),
    pytest.param({"desired": 1}, "nodePools[0].desired", "did you mean 'desiredSize'?", id="typo-desired"),
    pytest.param({"label": {"a": "b"}}, "nodePools[0].label", "did you mean 'labels'?", id="typo-labels"),
    pytest.param({"zzz": 1}, "nodePools[0].zzz", "unknown key", id="unknown-no-hint"),
    pytest.param(
        {"gpu": {"modle": "l4", "count": 1}}, "nodePools[0].gpu.modle", "did you mean 'model'?", id="typo-gpu-model"
    ),
    pytest.param(
        {"sharing": {"mode": "mps", "replica": 2}},
        "nodePools[0].sharing.replica",
        "did you mean 'replicas'?",
        id="typo-replicas",
    ),
    pytest.param(
        {"sharing": {"mode": "time-slicing", "replicas": 2, "renameByDefualt": True}},
        "nodePools[0].sharing.renameByDefualt",
        "did you mean 'renameByDefault'?",
        id="typo-rename",
    ),
    pytest.param(
        {"instanceType": "p5.48xlarge", "sharing": {"mode": "mig", "profiles": "1g.10gb"}},
        "nodePools[0].sharing.profiles",
        "did you mean 'profile'?",
        id="typo-profile",
    ),
    pytest.param(
        {"sharing": {"mode": "time-slicing", "replicas": 2, "profile": "1g.10gb"}},
        "nodePools[0].sharing.profile",
        "unknown key",
        id="mig-key-under-time-slicing",
    ),
    pytest.param(
        {"taints": [{"key": "a", "efect": "NoSchedule"}]},
        "nodePools[0].taints[0].efect",
        "did you mean 'effect'?",
        id="typo-effect",
    ),
    # required keys
    pytest.param({"name": None}, "nodePools[0].name", "is required", id="name-missing"),
    pytest.param({"instanceType": None}, "nodePools[0].instanceType", "is required", id="type-missing"),
    pytest.param({"minSize": None}, "nodePools[0].minSize", "is required", id="min-missing"),
    pytest.param({"maxSize": None}, "nodePools[0].maxSize", "is required", id="max-missing"),
    pytest.param({"gpu": {"count": 1}}, "nodePools[0].gpu.model", "is required", id="gpu-model-missing"),
    pytest.param({"gpu": {"model": "l4"}}, "nodePools[0].gpu.count", "is required", id="gpu-count-missing"),
    pytest.param({"sharing": {"replicas": 2}}, "nodePools[0].sharing.mode", "is required", id="mode-missing"),
    pytest.param({"sharing": {"mode": "mps"}}, "nodePools[0].sharing.replicas", "is required", id="replicas-missing"),
    pytest.param(
        {"taints": [{"value": "x", "effect": "NoSchedule"}]},
        "nodePools[0].taints[0].key",
        "is required",
        id="taint-key-missing",
    ),
    pytest.param({"taints": [{"key": "x"}]}, "nodePools[0].taints[0].effect", "is required", id="taint-effect-missing"),
    # wrong types
    pytest.param({"minSize": "2"}, "nodePools[0].minSize", "must be a whole number; got '2'", id="min-string"),
    pytest.param({"maxSize": 2.5}, "nodePools[0].maxSize", "must be a whole number", id="max-float"),
    pytest.param({"maxSize": True}, "nodePools[0].maxSize", "must be a whole number; got True", id="max-bool"),
    pytest.param({"desiredSize": "1"}, "nodePools[0].desiredSize", "must be a whole number", id="desired-string"),
    pytest.param({"name": 5}, "nodePools[0].name", "must be a string; got 5", id="name-int"),
    pytest.param(
        {"instanceType": ["g6.xlarge"]},
        "nodePools[0].instanceType",
        "a fixed node pool has one instance type",
        id="type-list",
    ),
    pytest.param({"capacity": False}, "nodePools[0].capacity", "must be a string", id="capacity-bool"),
    pytest.param({"driverVersion": 535}, "nodePools[0].driverVersion", "must be a string", id="driver-version-int"),
    pytest.param({"gpu": "l4"}, "nodePools[0].gpu", "must be a mapping", id="gpu-string"),
    pytest.param(
        {"gpu": {"model": "l4", "count": "1"}},
        "nodePools[0].gpu.count",
        "must be a whole number",
        id="gpu-count-string",
    ),
    pytest.param(
        {"gpu": {"model": "l4", "count": 1, "arch": "amd64"}},
        "nodePools[0].gpu.arch",
        "unknown CPU architecture",
        id="gpu-arch",
    ),
    pytest.param(
        {"sharing": {"mode": "mps", "replicas": True}},
        "nodePools[0].sharing.replicas",
        "must be a whole number; got True",
        id="replicas-bool",
    ),
    pytest.param(
        {"sharing": {"mode": "mps", "replicas": "4"}},
        "nodePools[0].sharing.replicas",
        "must be a whole number",
        id="replicas-string",
    ),
    pytest.param(
        {"sharing": {"mode": "mps", "replicas": 2, "renameByDefault": "yes"}},
        "nodePools[0].sharing.renameByDefault",
        "must be a boolean (true or false)",
        id="rename-string",
    ),
    pytest.param({"sharing": {"mode": 2}}, "nodePools[0].sharing.mode", "must be a string", id="mode-int"),
    pytest.param(
        {"sharing": "time-slicing"},
        "nodePools[0].sharing",
        "must be none or a mapping with a mode",
        id="sharing-string",
    ),
    pytest.param({"sharing": 4}, "nodePools[0].sharing", "must be none or a mapping", id="sharing-int"),
    pytest.param({"sharing": {"mode": "vgpu"}}, "nodePools[0].sharing.mode", "unknown sharing mode", id="mode-unknown"),
    pytest.param(
        {"instanceType": "p5.48xlarge", "sharing": {"mode": "mig", "layout": {"1g.10gb": "7"}}},
        "nodePools[0].sharing.layout['1g.10gb']",
        "must be a whole number",
        id="layout-count-string",
    ),
    pytest.param(
        {"instanceType": "p5.48xlarge", "sharing": {"mode": "mig", "layout": {"1g.10gb": True}}},
        "nodePools[0].sharing.layout['1g.10gb']",
        "must be a whole number",
        id="layout-count-bool",
    ),
    pytest.param(
        {"instanceType": "p5.48xlarge", "sharing": {"mode": "mig", "layout": 7}},
        "nodePools[0].sharing.layout",
        "must be a layout name or profile -> count",
        id="layout-int",
    ),
    pytest.param(
        {"instanceType": "p5.48xlarge", "sharing": {"mode": "mig", "profile": 1}},
        "nodePools[0].sharing.profile",
        "must be a string",
        id="profile-int",
    ),
    pytest.param(
        {"labels": ["a=b"]}, "nodePools[0].labels", "must be a mapping of label key to value", id="labels-list"
    ),
    pytest.param(
        {"labels": {"replicas": 3}}, "nodePools[0].labels['replicas']", "quote numbers and booleans", id="label-int"
    ),
    pytest.param({"labels": {"spot": True}}, "nodePools[0].labels['spot']", "must be a string", id="label-bool"),
    pytest.param({"labels": {"team": None}}, "nodePools[0].labels['team']", "must be a string", id="label-null"),
    pytest.param({"taints": {"key": "a"}}, "nodePools[0].taints", "must be a list of taints", id="taints-mapping"),
    pytest.param({"taints": [7]}, "nodePools[0].taints[0]", "must be a mapping {key, value, effect}", id="taint-int"),
    pytest.param(
        {"taints": ["dedicated"]}, "nodePools[0].taints[0]", "must look like key=value:Effect", id="taint-no-effect"
    ),
    pytest.param(
        {"taints": ["=ml:NoSchedule"]}, "nodePools[0].taints[0]", "must look like key=value:Effect", id="taint-no-key"
    ),
    pytest.param(
        {"taints": ["dedicated=ml:NO_SCHEDULE"]},
        "nodePools[0].taints[0].effect",
        "use the Kubernetes spelling; gpuready converts it for each cloud",
        id="taint-eks-spelling",
    ),
    pytest.param(
        {"taints": ["dedicated=ml:noschedule"]},
        "nodePools[0].taints[0].effect",
        "unknown taint effect",
        id="taint-lowercase",
    ),
    pytest.param(
        {"taints": [{"key": "a", "value": 1, "effect": "NoSchedule"}]},
        "nodePools[0].taints[0].value",
        "must be a string",
        id="taint-value-int",
    ),
    # rules of the spec, re-pathed under the pool
    pytest.param(
        {"instanceType": "g6.xlarg"}, "nodePools[0].instanceType", "did you mean g6.xlarge", id="rule-instance-type"
    ),
    pytest.param({"minSize": 3}, "nodePools[0].minSize", "is larger than maxSize", id="rule-sizes"),
    pytest.param(
        {"sharing": {"mode": "mps", "replicas": 1}}, "nodePools[0].sharing.replicas", "at least 2", id="rule-replicas"
    ),
    pytest.param(
        {"labels": {"kubernetes.io/x": "y"}}, "nodePools[0].labels['kubernetes.io/x']", "reserved", id="rule-labels"
    ),
    pytest.param(
        {"taints": ["a=b:NoSchedule", "a=c:NoSchedule"]}, "nodePools[0].taints[1]", "duplicate taint", id="rule-taints"
    ),
]


@pytest.mark.parametrize(("entry", "path", "text"), REFUSED)
def test_bad_entry_is_refused_with_its_path(entry: dict[str, Any], path: str, text: str) -> None:
    problems = _problems([_pool(**entry)])
    assert any(p.path == path and text in str(p) for p in problems), problems


def test_unknown_key_lists_the_allowed_keys() -> None:
    (problem,) = _problems([_pool(extra=1)])
    assert list(problem.allowed) == sorted(pool_config.POOL_KEYS)


def test_type_errors_of_one_pool_are_all_reported() -> None:
    problems = _problems([{"name": 1, "instanceType": 2, "minSize": "0", "maxSize": None, "typo": 1}])
    assert sorted(p.path for p in problems) == [
        "nodePools[0].instanceType",
        "nodePools[0].maxSize",
        "nodePools[0].minSize",
        "nodePools[0].name",
        "nodePools[0].typo",
    ]


def test_problems_of_several_pools_are_reported_together() -> None:
    problems = _problems(
        [
            _pool(name="ok"),
            _pool(name="two", sharing={"mode": "time-slicing", "replicas": 1}),
            _pool(name="three", minSize="1"),
            _pool(name="four", instanceType="m5.large", labels={"team": 1}),
        ]
    )
    assert [p.path for p in problems] == [
        "nodePools[1].sharing.replicas",
        "nodePools[2].minSize",
        "nodePools[3].labels['team']",
        "nodePools[3].instanceType",  # the rules still run on the keys whose shape was fine
    ]


def test_spec_rule_problems_of_several_pools_are_reported_together() -> None:
    problems = _problems(
        [_pool(name="Bad_Name", minSize=-1), _pool(name="two", sharing={"mode": "mps", "replicas": 0})], "gke"
    )
    assert [p.path for p in problems] == [
        "nodePools[0].instanceType",
        "nodePools[0].name",
        "nodePools[0].minSize",
        "nodePools[1].instanceType",
    ]


@pytest.mark.parametrize(
    ("names", "duplicates"),
    [(["a", "a"], ["a"]), (["a", "b", "a", "b", "c"], ["a", "b"]), (["gpu", "gpu", "gpu"], ["gpu"])],
)
def test_duplicate_pool_names_are_refused(names: list[str], duplicates: list[str]) -> None:
    problems = _problems([_pool(name=n) for n in names])
    assert [(p.path, p.problem, p.value) for p in problems] == [
        ("nodePools", "pool names must be unique", name) for name in duplicates
    ]


def test_duplicate_name_is_reported_alongside_other_problems() -> None:
    problems = _problems([_pool(name="a"), _pool(name="a", minSize=-1)])
    assert "pool names must be unique" in [p.problem for p in problems]


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ([], "must be a non-empty list of pools"),
        (None, "must be a non-empty list of pools"),
        ({"name": "gpu"}, "must be a non-empty list of pools"),
        ("- name: gpu", "must be a non-empty list of pools"),
    ],
)
def test_pool_list_must_be_a_non_empty_list(raw: object, problem: str) -> None:
    (found,) = _problems(raw)
    assert (found.path, found.problem) == ("nodePools", problem)


@pytest.mark.parametrize("entry", ["gpu", 5, None, ["name", "gpu"]])
def test_pool_entry_must_be_a_mapping(entry: object) -> None:
    (problem,) = _problems([_pool(), entry])
    assert (problem.path, problem.problem) == ("nodePools[1]", "must be a mapping of pool settings")


def test_unknown_cloud_is_refused() -> None:
    (problem,) = _problems([_pool()], "azure")
    assert (problem.path, problem.allowed) == ("cloud", ("eks", "aks", "gke"))


def test_custom_path_prefixes_every_problem() -> None:
    with pytest.raises(ConfigError) as info:
        pool_config.parse_pools([_pool(minSize="0")], "eks", path="gpuready:nodePools")
    assert [p.path for p in info.value.problems] == ["gpuready:nodePools[0].minSize"]
