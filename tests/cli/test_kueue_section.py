"""The plan's Kueue section: the ClusterQueue's namespaces, cohort, each flavor's quota and admission check, and the
LocalQueues onto it, read from the planned objects (``core.kueue.queues``)."""

from __future__ import annotations

from typing import Any

import pytest

from gpuready.cli.kueue_section import render_kueue
from gpuready.core.config_model.parsers import parse_kueue
from gpuready.core.health.repair import RepairPolicy
from gpuready.core.kueue.objects import kueue_objects
from gpuready.offline.plan import PlannedResource
from tests.core.conftest import build_spec

OFF = RepairPolicy(enabled=False)
POOLS = (
    build_spec("gke", name="train", instance_type="a3-highgpu-8g", capacity="queued", repair=OFF),
    build_spec("gke", name="serve", instance_type="g2-standard-8", max_size=4),
)


def _planned(kueue: dict[str, Any]) -> list[PlannedResource]:
    root = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s"
    return [
        PlannedResource(type=f"kubernetes:{obj['apiVersion']}:{obj['kind']}", name=key, parent=root,
                        urn=f"urn:pulumi:s::p::{obj['kind']}::{key}", custom=True, inputs=obj)
        for key, obj in kueue_objects(POOLS, parse_kueue(kueue, POOLS)).items()
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("kueue", "lines"),
    [
        (
            {"flavors": "all", "clusterQueue": {"name": "ml", "cohort": "org"},
             "localQueues": [{"namespace": "team-a", "name": "ml"}]},
            ["Kueue ClusterQueue 'ml' (every namespace, cohort org):",
             "  flavor train: nvidia.com/gpu 16; admission check train",
             "  flavor serve: nvidia.com/gpu 4",
             "Kueue LocalQueue team-a/ml -> ml"],
        ),
        (
            {"clusterQueue": {"name": "ml", "namespaceSelector": {"matchLabels": {"team": "ml"}, "matchExpressions": [
                {"key": "kubernetes.io/metadata.name", "operator": "In", "values": ["a", "b"]}]}}},
            ["Kueue ClusterQueue 'ml' (namespaces team=ml, kubernetes.io/metadata.name In [a, b]):",
             "  flavor train: nvidia.com/gpu 16; admission check train"],
        ),
        ({}, [""]),
    ],
    ids=["queue-and-local-queue", "namespace-selector", "no-queue"],
)  # fmt: skip
def test_the_section_shows_the_queue(kueue: dict[str, Any], lines: list[str]) -> None:
    assert render_kueue(_planned(kueue)).split("\n") == lines
