"""The pool readers: the taint and number spellings they read, a reader per type, and no error on any props."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest

from gpuready.core.capacity.gpu_types import gpu_instance_type
from gpuready.core.capacity.pool_facts import PoolReader, api_taint, text_taint, whole
from gpuready.core.capacity.readers import (
    elastic_types,
    fixed_types,
    pool_readers,
    read_pools,
    shape_problems,
    types_reading,
)
from gpuready.core.taints import Taint


@pytest.mark.parametrize(
    ("entry", "taint"),
    [
        ({"key": "nvidia.com/gpu", "value": "present", "effect": "NO_SCHEDULE"}, Taint("nvidia.com/gpu", "present")),
        ({"key": "k", "effect": "NoExecute"}, Taint("k", "", "NoExecute")),
        ({"key": "k", "effect": "Sometimes"}, Taint("k", "", "Sometimes")),  # type: ignore[arg-type]
        ("k=v:NoSchedule", None),
        (None, None),
    ],
)
def test_api_taint(entry: object, taint: Taint | None) -> None:
    assert api_taint(entry) == taint


@pytest.mark.parametrize(
    ("text", "taint"),
    [
        ("nvidia.com/gpu=present:NoSchedule", Taint("nvidia.com/gpu", "present")),
        ("sku:NoExecute", Taint("sku", "", "NoExecute")),
        ("no-effect", None),
        (":NoSchedule", None),
    ],
)
def test_text_taint(text: str, taint: Taint | None) -> None:
    assert text_taint(text) == taint


@pytest.mark.parametrize(
    ("value", "number"),
    [(3, 3), (3.0, 3), ("12", 12), (0, 0), (2.5, None), (-1, None), (True, None), ("1e3", None), (None, None)],
)
def test_whole(value: object, number: int | None) -> None:
    assert whole(value) == number


def test_every_pool_type_is_fixed_or_elastic() -> None:
    assert set(fixed_types() | elastic_types()) == set(pool_readers())
    assert not set(fixed_types() & elastic_types())
    assert all((token in fixed_types()) != (token in elastic_types()) for token in pool_readers())


HOSTILE: list[Any] = [
    {},
    {"instanceTypes": {"a": 1}, "scalingConfig": "big", "taints": "none", "labels": [1]},
    {"vmSize": 7, "agentPoolProfiles": {"x": 1}, "nodeTaints": [1, None], "enableAutoScaling": "yes"},
    {"agentPoolProfiles": [None, {"vmSize": "Standard_NC4as_T4_v3", "nodeTaints": {"k": 1}, "count": -1}]},
    {"nodeConfig": {"machineType": "a2-highgpu-1g", "guestAccelerators": "x", "taints": [{"key": 1}]}},
    {"nodeConfig": {"guestAccelerators": [{"type": "nvidia-l4", "count": "one"}]}, "autoscaling": []},
    {"spec": {"template": {"spec": {"requirements": [{"key": 1}, "x"], "taints": 3}}, "limits": [1]}},
    {"spec": {"template": {"spec": {"requirements": [
        {"key": "node.kubernetes.io/instance-type", "operator": "In", "values": ["g6.xlarge", 5]}]}}, "limits": "x"}},
    {"spec": {"priorities": [{"gpu": "l4"}, {"machineFamily": 2}, None], "nodePoolConfig": []}},
    {"spec": {"priorities": [{"gpu": {"type": 7}}], "nodePoolConfig": {"taints": "x", "nodeLabels": None}}},
]  # fmt: skip


@pytest.mark.parametrize("resource_type", sorted(pool_readers()))
@pytest.mark.parametrize("props", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_no_props_make_a_reader_fail(resource_type: str, props: Any) -> None:
    """Readers read any program's resources: odd props are no pool, or a pool with what could be read."""
    pools = read_pools(resource_type, MappingProxyType(props))
    assert all(p.cloud and p.taints_field and p.labels_field for p in pools)
    assert read_pools(resource_type, props) == pools  # plain dicts are read afresh, to the same answer


@pytest.mark.parametrize(
    ("name", "cloud", "listed"),
    [
        ("g6.xlarge", "eks", True),
        ("p3.2xlarge", "eks", False),
        ("m5.large", None, False),
        ("Standard_NC4as_T4_v3", "aks", True),
        ("standard_nc4as_t4_v3", "aks", True),
        ("Standard_NC6s_v9", "aks", False),
        ("Standard_ND96isr_MI300X_v5", None, False),
        ("a2-highgpu-1g", "gke", True),
        ("a4x-highgpu-4g", "gke", False),
        ("n2-standard-4", None, False),
    ],
)
def test_gpu_instance_type_of_any_cloud(name: str, cloud: str | None, listed: bool) -> None:
    found = gpu_instance_type(name)
    assert (found[0] if found else None, found is not None and found[1] is not None) == (cloud, listed)


def _reader(shape: dict[str, Any]) -> PoolReader:
    return PoolReader(lambda props: (), shape)


@pytest.mark.parametrize(
    ("shape", "props", "problems"),
    [
        ({"a": "list"}, {"a": [1]}, ()),
        ({"a": "list"}, {"a": ()}, ()),
        ({"a": "list"}, {}, ()),  # unset is not misshapen
        ({"a": "list"}, {"a": None}, ()),
        ({"a": "list"}, {"a": "x"}, ("a: a list, not str",)),
        ({"a": "list"}, {"a": {"k": 1}}, ("a: a list, not dict",)),
        ({"a.b": "object"}, {"a": {"b": [1]}}, ("a.b: an object, not list",)),
        ({"a.b": "object"}, {"a": 3}, ()),  # the parent's shape is its own entry's to check
        ({"a": "object", "a.b": "object"}, {"a": 3}, ("a: an object, not int",)),
        ({"a": "object"}, MappingProxyType({"a": MappingProxyType({})}), ()),
    ],
)
def test_a_reader_s_shape_names_each_misshapen_field(
    shape: dict[str, Any], props: Any, problems: tuple[str, ...]
) -> None:
    assert _reader(shape).problems(props) == problems


def test_every_reader_s_shape_names_fields_its_resource_reads_without_problems_on_an_empty_resource() -> None:
    for token, reader in pool_readers().items():
        assert reader.shape, token
        assert shape_problems(token, {}) == ()
    assert shape_problems("kubernetes:core/v1:Pod", {"spec": 1}) == ()  # no reader: nothing to refuse
    assert types_reading("image") <= fixed_types() and types_reading("sharing") <= fixed_types()
