"""The plan's policy-violation table."""

from __future__ import annotations

from gpuready.cli.violation_table import format_violations, short_resource


def test_table_and_short_resource_names() -> None:
    urn = "urn:pulumi:dev::p::gpuready:index:EksGpuNodePool$aws:eks/nodeGroup:NodeGroup::gpu-ng"
    assert short_resource(urn) == "aws:eks/nodeGroup:NodeGroup::gpu-ng"
    assert short_resource("") == ""
    table = format_violations([{"policy": "p", "level": "mandatory", "resource": urn, "message": "m"}])
    assert table.splitlines()[0] == "Policy violations: 1 mandatory, 0 advisory"
    assert table.splitlines()[2].split() == ["LEVEL", "POLICY", "RESOURCE", "MESSAGE"]
    assert table.splitlines()[3].split() == ["mandatory", "p", "aws:eks/nodeGroup:NodeGroup::gpu-ng", "m"]
    assert format_violations([]) == "Policy violations: none"
