"""A GKE specific reservation's zone and size against the pool's (issue #28; modelplane #184): each refusal a row
with its path, value, allowed and hint; the pool's own zones, the stack's gkeNodeLocations, a zonal cluster's zone
and the component's nodeLocations all count; a reservation of another project than the cluster's is warned of."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gpuready.core.pool_config import parse_pools
from gpuready.core.specs import GpuPoolSpec, Reservation
from gpuready.core.stack_settings import parse_stack_settings
from gpuready.errors import ConfigError, SpecError
from gpuready.gke import reservation_zone
from gpuready.gke.compute_class_capacity import capacity_rule

SPECIFIC: dict[str, Any] = {"affinity": "specific", "name": "a100-eval", "zone": "us-central1-b", "nodes": 2}
POOL = {"name": "a100", "instanceType": "a2-highgpu-1g", "minSize": 0, "maxSize": 2, "capacity": "reserved"}


def spec(**extra: Any) -> GpuPoolSpec:
    given: dict[str, Any] = {"name": "gpu", "instance_type": "a2-highgpu-1g", "min_size": 0, "max_size": 2,
                             "capacity": "reserved"}  # fmt: skip
    return GpuPoolSpec(cloud="gke", **{**given, **extra})


REFUSED = [
    # (pool keys, path, words in the problem, allowed, words in the hint)
    pytest.param({"zones": ("us-central1-a",), "reservation": Reservation(**SPECIFIC)}, "reservation.zone",
                 "not among the pool's node locations (zones)", ("us-central1-a",), "zones: [us-central1-b]",
                 id="zone-outside-the-pool-s-zones"),
    pytest.param({"reservation": Reservation(**{**SPECIFIC, "zone": "central1"})}, "reservation.zone",
                 "not a Compute Engine zone", (), "e.g. us-central1-a", id="zone-format"),
    pytest.param({"max_size": 3, "reservation": Reservation(**SPECIFIC)}, "maxSize",
                 "above the 2 nodes the reservation holds", (), "lower maxSize to 2", id="max-size-above-the-nodes"),
    pytest.param({"reservation": Reservation(affinity="any", zone="us-central1-b")}, "reservation.zone",
                 "only a specific reservation takes", (), "affinity: specific", id="zone-of-any-reservation"),
    pytest.param({"reservation": Reservation(affinity="any", nodes=2)}, "reservation.nodes",
                 "only a specific reservation takes", (), "affinity: specific", id="nodes-of-any-reservation"),
    pytest.param({"capacity": "on-demand", "reservation": Reservation(zone="us-central1-b")}, "reservation.zone",
                 "affinity is unset", (), "remove reservation.zone", id="zone-without-a-reservation"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "path", "words", "allowed", "hint"), REFUSED)
def test_refused_with_a_working_hint(
    extra: dict[str, Any], path: str, words: str, allowed: tuple[str, ...], hint: str
) -> None:
    with pytest.raises(SpecError) as caught:
        spec(**extra)
    matching = [p for p in caught.value.problems if p.path == path and words in p.problem]
    assert matching, caught.value.problems
    assert matching[0].allowed == allowed and hint in matching[0].hint


def test_a_reservation_in_the_pool_s_zone_within_its_size_passes_and_the_plan_shows_it() -> None:
    pool = spec(zones=("us-central1-b",), reservation=Reservation(**SPECIFIC))
    assert reservation_zone.problems(pool) == []
    class_pool = spec(provisioner="compute-class", reservation=Reservation(**SPECIFIC))
    assert capacity_rule(class_pool)["reservations"]["specific"] == [{"name": "a100-eval", "zones": ["us-central1-b"]}]


def _settings(pool: dict[str, Any], **stack: Any) -> dict[str, Any]:
    return {"cloud": "gke", "clusterName": "ml", "nodePools": json.dumps([pool]), "gkeLocation": "us-central1",
            "gkeNodeLocations": json.dumps(["us-central1-a", "us-central1-c"]), **stack}  # fmt: skip


@pytest.mark.parametrize(
    ("stack", "allowed"),
    [({}, ("us-central1-a", "us-central1-c")),
     ({"gkeLocation": "us-central1-a", "gkeNodeLocations": json.dumps([])}, ("us-central1-a",))],
    ids=["the-stack-s-node-locations", "a-zonal-cluster-s-zone"],
)  # fmt: skip
def test_a_pool_without_zones_is_judged_by_the_stack_s(stack: dict[str, Any], allowed: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_stack_settings(_settings({**POOL, "reservation": SPECIFIC}, **stack))
    (problem,) = [p for p in caught.value.problems if p.path == "gpuready:nodePools[0].reservation.zone"]
    assert problem.allowed == allowed and "gkeNodeLocations" in problem.problem
    good = parse_stack_settings(_settings({**POOL, "reservation": {**SPECIFIC, "zone": allowed[0]}}, **stack))
    assert good.pools[0].reservation is not None


def test_the_component_s_node_locations_are_judged_too() -> None:
    (pool,) = parse_pools([{**POOL, "reservation": SPECIFIC}], "gke")
    (problem,) = reservation_zone.outside_problems(pool, ("us-central1-a",), "pool.")
    assert problem.path == "pool.reservation.zone" and problem.value == "us-central1-b"


@pytest.mark.parametrize(
    ("project", "cluster", "warned"),
    [("ml-platform-project", "ml-dev-project", True), ("ml-dev-project", "ml-dev-project", False),
     ("ml-platform-project", None, False), (None, "ml-dev-project", False)],
)  # fmt: skip
def test_a_reservation_of_another_project_is_warned_of(project: str | None, cluster: str | None, warned: bool) -> None:
    pool = spec(reservation=Reservation(affinity="specific", name="a100-eval", project=project))
    warning = reservation_zone.project_warning(pool, cluster)
    assert (warning is not None) == warned
    if warning is not None:
        assert "--add-share-with=ml-dev-project" in warning and warning.startswith("pool gpu:")


@pytest.mark.parametrize(
    ("zone", "spanned", "others"),
    [("us-central1-b", ("us-central1-a", "us-central1-b"), "us-central1-a"),
     ("us-central1-b", ("us-central1-b",), None),
     ("us-central1-b", ("us-central1-a", "us-central1-b", "us-central1-c"), "us-central1-a, us-central1-c"),
     ("us-central1-b", (), None)],
)  # fmt: skip
def test_a_pool_spanning_more_zones_than_its_reservation_is_warned_of(
    zone: str, spanned: tuple[str, ...], others: str | None
) -> None:
    pool = spec(reservation=Reservation(affinity="specific", name="h100-train", zone=zone))
    warning = reservation_zone.zones_warning(pool, spanned)
    assert (warning is not None) == (others is not None)
    if warning is not None:
        assert f"also spans {others}:" in warning and f"zones: [{zone}]" in warning


def test_a_reservation_without_a_zone_or_not_specific_gets_no_zones_warning() -> None:
    spanned = ("us-central1-a", "us-central1-b")
    assert reservation_zone.zones_warning(spec(reservation=Reservation(affinity="specific", name="r")), spanned) is None
    assert reservation_zone.zones_warning(spec(reservation=Reservation(affinity="any")), spanned) is None
