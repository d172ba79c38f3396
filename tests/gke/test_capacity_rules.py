"""GKE node pool capacity (issue #28): each cross-field rule of ``gke.capacity_rules`` is a row here, refused with
its field, value and a hint that works; the accepted forms plan the inputs pulumi_gcp documents."""

from __future__ import annotations

import inspect
from typing import Any

import pulumi_gcp.container._inputs as gcp_inputs
import pytest

from gpuready.core import resource_inputs
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.scale_path.verdict import pool_verdict
from gpuready.core.specs import GpuPoolSpec, Reservation
from gpuready.errors import SpecError
from gpuready.gke import capacity_rules, lifecycle, plan
from gpuready.gke.capacity import PROVISIONER

OFF = RepairPolicy(enabled=False)


def spec(**extra: Any) -> GpuPoolSpec:
    given: dict[str, Any] = {"name": "gpu", "instance_type": "a3-highgpu-8g", "min_size": 0, "max_size": 4}
    return GpuPoolSpec(cloud="gke", **{**given, **extra})


def refusal(**extra: Any) -> list[Any]:
    with pytest.raises(SpecError) as caught:
        spec(**extra)
    return list(caught.value.problems)


REFUSED = [
    # (pool keys, path, words in the problem, words in the hint) -- one row per rule in gke.capacity_rules
    pytest.param({"capacity": "queued", "repair": OFF, "location_policy": "BALANCED"}, "locationPolicy",
                 "location policy ANY only", "locationPolicy: ANY", id="queued-balanced"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "location_policy": "BALANCED"}, "locationPolicy",
                 "location policy ANY only", "locationPolicy: ANY", id="flex-balanced"),
    pytest.param({"location_policy": "ROUND_ROBIN"}, "locationPolicy", "unknown location policy", "", id="policy"),
    pytest.param({"capacity": "queued", "repair": OFF, "reservation": Reservation(affinity="specific", name="r")},
                 "reservation.affinity", "queued pool consumes no reservation", "remove reservation",
                 id="queued-specific"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "reservation": Reservation(affinity="any")},
                 "reservation.affinity", "NO_RESERVATION", "remove reservation", id="flex-any"),
    pytest.param({"capacity": "spot", "reservation": Reservation(affinity="any")}, "reservation.affinity",
                 "spot pool consumes no reservation", "remove reservation", id="spot-any"),
    pytest.param({"reservation": Reservation(affinity="specific", name="r")}, "reservation.affinity",
                 "on-demand pool consumes no reservation", "capacity: reserved", id="on-demand-specific"),
    pytest.param({"capacity": "reserved"}, "reservation.affinity", "names how it consumes", "affinity: any",
                 id="reserved-without"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="none")}, "reservation.affinity",
                 "reserved pool consumes a reservation", "reservation.affinity: any", id="reserved-none"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="some")}, "reservation.affinity",
                 "unknown reservation affinity", "", id="affinity-unknown"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="specific")}, "reservation.name",
                 "required for a specific reservation", "reservation.name", id="specific-unnamed"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="specific", name="R_1")},
                 "reservation.name", "not a GCE reservation name", "lowercase", id="name-format"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="specific", name="r", project="P")},
                 "reservation.project", "not a Google Cloud project id", "6-30", id="project-format"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="any", name="r")}, "reservation.name",
                 "only a specific reservation takes a name", "affinity: specific", id="any-named"),
    pytest.param({"capacity": "flex-start"}, "repair", "needs node auto-repair off", "repair: false",
                 id="flex-repair"),
    pytest.param({"capacity": "queued"}, "repair", "needs node auto-repair off", "repair: false", id="queued-repair"),
    pytest.param({"capacity": "queued", "repair": OFF, "min_size": 1}, "minSize", "no minimum", "minSize: 0",
                 id="queued-min"),
    pytest.param({"capacity": "queued", "repair": OFF, "desired_size": 2}, "desiredSize", "starts empty",
                 "remove desiredSize", id="queued-desired"),
    pytest.param({"capacity": "queued", "repair": OFF, "overrides": {"placementPolicy": {"type": "COMPACT"}}},
                 "overrides.placementPolicy.type", "no compact placement", "remove overrides.placementPolicy",
                 id="queued-compact"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "overrides": {"placementPolicy": {"type": "COMPACT"}}},
                 "overrides.placementPolicy.type", "a3-ultragpu-*", "remove overrides.placementPolicy",
                 id="flex-compact"),
    pytest.param({"max_run_duration": 3600}, "maxRunDuration", "only flex-start and queued", "capacity: flex-start",
                 id="run-on-demand"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "max_run_duration": 8 * 24 * 3600}, "maxRunDuration",
                 "between 30 and 604800", "", id="run-too-long"),
    pytest.param({"capacity": "capacity-block"}, "capacity", "not offered by the GKE node-pool", "allowed",
                 id="capacity-block"),
    pytest.param({"overrides": {"queuedProvisioning": {"enabled": True}}}, "overrides.queuedProvisioning",
                 "owned by capacity", "set capacity", id="override-queued"),
    pytest.param({"overrides": {"nodeConfig": {"flexStart": True}}}, "overrides.nodeConfig.flexStart",
                 "owned by capacity", "set capacity", id="override-flex"),
    pytest.param({"overrides": {"nodeConfig": {"reservationAffinity": {"consumeReservationType": "ANY"}}}},
                 "overrides.nodeConfig.reservationAffinity", "owned by reservation", "set reservation",
                 id="override-res"),
    pytest.param({"overrides": {"autoscaling": {"locationPolicy": "ANY"}}}, "overrides.autoscaling.locationPolicy",
                 "owned by locationPolicy", "set locationPolicy", id="override-policy"),
    pytest.param({"overrides": {"nodeConfig": {"maxRunDuration": "60s"}}}, "overrides.nodeConfig.maxRunDuration",
                 "owned by maxRunDuration", "set maxRunDuration", id="override-run"),
    pytest.param({"overrides": {"management": {"autoRepair": False}}}, "overrides.management.autoRepair",
                 "owned by repair", "set repair", id="override-repair"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "path", "words", "hint"), REFUSED)
def test_a_capacity_rule_is_refused_with_a_working_hint(
    extra: dict[str, Any], path: str, words: str, hint: str
) -> None:
    problems = refusal(**extra)
    matching = [p for p in problems if p.path == path and words in str(p)]
    assert matching, problems
    assert hint in matching[0].hint


def test_the_issue_s_combination_is_refused_on_every_count() -> None:
    """queuedProvisioning + flexStart + COMPACT + a SPECIFIC reservation + autoRepair: each part refused."""
    problems = refusal(
        capacity="queued",
        reservation=Reservation(affinity="specific", name="r"),
        overrides={"placementPolicy": {"type": "COMPACT"}},
    )
    assert {p.path for p in problems} >= {"reservation.affinity", "repair", "overrides.placementPolicy.type"}


ACCEPTED = [
    pytest.param({}, {"location_policy": "BALANCED"}, {"spot": False}, id="on-demand"),
    pytest.param({"capacity": "spot"}, {"location_policy": "ANY"}, {"spot": True}, id="spot"),
    pytest.param({"location_policy": "ANY"}, {"location_policy": "ANY"}, {}, id="on-demand-any"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="any")}, {"location_policy": "ANY"},
                 {"reservation_affinity": {"consume_reservation_type": "ANY_RESERVATION"}}, id="reserved-any"),
    pytest.param({"capacity": "reserved", "reservation": Reservation(affinity="specific", name="h100-res",
                                                                     project="shared-proj")}, {},
                 {"reservation_affinity": {"consume_reservation_type": "SPECIFIC_RESERVATION",
                                           "key": "compute.googleapis.com/reservation-name",
                                           "values": ["projects/shared-proj/reservations/h100-res"]}},
                 id="reserved-shared"),
    pytest.param({"reservation": Reservation(affinity="none")}, {},
                 {"reservation_affinity": {"consume_reservation_type": "NO_RESERVATION"}}, id="on-demand-none"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "max_run_duration": 86400}, {"location_policy": "ANY"},
                 {"flex_start": True, "max_run_duration": "86400s",
                  "reservation_affinity": {"consume_reservation_type": "NO_RESERVATION"}}, id="flex-start"),
    pytest.param({"capacity": "flex-start", "repair": OFF, "instance_type": "a3-ultragpu-8g",
                  "overrides": {"placementPolicy": {"type": "COMPACT"}}}, {}, {"flex_start": True},
                 id="flex-compact-a3-ultra"),
]  # fmt: skip


@pytest.mark.parametrize(("extra", "autoscaling", "node_config"), ACCEPTED)
def test_an_accepted_capacity_plans_its_inputs(
    extra: dict[str, Any], autoscaling: dict[str, Any], node_config: dict[str, Any]
) -> None:
    args = plan.node_pool_args(spec(**extra), 1)
    assert args["autoscaling"].items() >= autoscaling.items()
    assert args["node_config"].items() >= node_config.items()
    assert "queued_provisioning" not in args


def test_a_queued_pool_is_flex_start_with_queued_provisioning_and_gke_s_taint() -> None:
    queued = spec(capacity="queued", repair=OFF)
    args = plan.node_pool_args(queued, 1)
    assert args["queued_provisioning"] == {"enabled": True}
    assert args["node_config"]["flex_start"] is True
    assert args["autoscaling"]["location_policy"] == "ANY"
    assert args["management"]["auto_repair"] is False
    assert PROVISIONER.selection_taints(queued) == (capacity_rules.QUEUED_TAINT,)
    assert PROVISIONER.selection_taints(spec()) == ()


def _documented(cls: type) -> str:
    """The class's text in pulumi_gcp's module, cut from the module's source (``inspect.getsource`` of a class
    parses the whole module with ``ast``, which CPython 3.11 can refuse mid-suite: "AST constructor recursion depth
    mismatch")."""
    text = inspect.getsource(gcp_inputs)
    start = text.index(f"\nclass {cls.__name__}:") + 1
    end = text.find("\nclass ", start + 1)
    return text[start : end if end > 0 else len(text)]


def test_every_enum_is_pulumi_gcp_s() -> None:
    """The values gpuready writes are those pulumi_gcp 10.2.0 documents for each input."""
    affinity_doc = _documented(gcp_inputs.NodePoolNodeConfigReservationAffinityArgs)
    for value in capacity_rules.AFFINITIES.values():
        assert f'"{value}"' in affinity_doc
    assert capacity_rules.RESERVATION_NAME_KEY in affinity_doc
    policy_doc = inspect.getsource(gcp_inputs).split("class NodePoolAutoscalingArgsDict")[1][:800]
    for policy in capacity_rules.LOCATION_POLICIES:
        assert f'"{policy}"' in policy_doc
    assert capacity_rules.COMPACT in _documented(gcp_inputs.NodePoolPlacementPolicyArgs)
    assert '"3600s"' in _documented(gcp_inputs.NodePoolNodeConfigArgs)  # max_run_duration as "<n>s"


def test_every_input_path_is_in_the_recorded_input_tree() -> None:
    tree = resource_inputs.load("gpuready.gke")
    paths = {
        "queuedProvisioning": "queued_provisioning",
        "nodeConfig.flexStart": "flex_start",
        "nodeConfig.maxRunDuration": "max_run_duration",
        "nodeConfig.reservationAffinity.consumeReservationType": "consume_reservation_type",
        "autoscaling.locationPolicy": "location_policy",
        "placementPolicy.type": "type",
    }
    assert resource_inputs.owned_paths_problems(dict.fromkeys(paths, ""), tree) == []


def test_the_scale_path_says_a_queued_pool_scales_only_through_its_provisioning_request() -> None:
    queued = pool_verdict(spec(capacity="queued", repair=OFF))
    assert queued.scales
    assert (
        queued.text == "yes 0->4 nodes through a ProvisioningRequest only (Kueue admits through the pool's "
        "AdmissionCheck)"
    )
    assert pool_verdict(spec(capacity="flex-start", repair=OFF)).text == "yes 0->4 nodes"


def test_every_capacity_input_has_a_replacement_row() -> None:
    """The diff never guesses for them: each is ForceNew in the bridged provider (gke.lifecycle cites the lines)."""
    for field in ("nodeConfig.reservationAffinity", "nodeConfig.flexStart", "nodeConfig.maxRunDuration",
                  "queuedProvisioning", "placementPolicy"):  # fmt: skip
        rule = lifecycle.NODE_POOL.rule(field)
        assert rule is not None and rule.action == "replace", field
