"""``gpuready verify`` and ``check`` against the stand-in: a fabric pool's node must advertise its fabric devices."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpuready.core import pool_config
from gpuready.core.scheduling import pool_labels
from gpuready.eks.fabric_facts import EFA_RESOURCE
from tests.cli_audit.conftest import GPU_TAINT, ROOT, Cli, eks_stack
from tests.kube_standin import KubeStandin, make_node

POOL = {"name": "train", "instanceType": "p5.48xlarge", "minSize": 0, "maxSize": 2, "desiredSize": 1,
        "fabric": "efa", "zones": ["us-east-1a"]}  # fmt: skip
STACK = eks_stack("""\
    - {name: train, instanceType: p5.48xlarge, minSize: 0, maxSize: 2, desiredSize: 1, fabric: efa,
       zones: [us-east-1a]}
""")


@pytest.fixture
def efa_project(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "Pulumi.yaml", tmp_path / "Pulumi.yaml")
    (tmp_path / "stacks").mkdir()
    (tmp_path / "stacks" / "Pulumi.efa.yaml").write_text(STACK)
    return tmp_path


def p5_node(efa: str | None) -> dict[str, object]:
    (spec,) = pool_config.parse_pools([POOL], "eks")
    capacity = {"nvidia.com/gpu": "8", **({EFA_RESOURCE: efa} if efa is not None else {})}
    return make_node("train-a", instance_type="p5.48xlarge", labels=pool_labels(spec), taints=[GPU_TAINT],
                     capacity=capacity)  # fmt: skip


@pytest.mark.parametrize(
    ("efa", "line"),
    [
        ("32", ""),
        (None, "train-a: error fabric-not-advertised"),
        ("4", "train-a: error fabric-devices-short"),
    ],
    ids=["all-interfaces", "plugin-not-running", "too-few-interfaces"],
)
def test_verify_fails_an_efa_pool_whose_node_lacks_its_interfaces(
    kube_standin: KubeStandin, gpuready: Cli, efa_project: Path, efa: str | None, line: str
) -> None:
    kube_standin.store.add(p5_node(efa))
    result = gpuready("verify", "--stack", "efa", "--project-dir", str(efa_project), "--timeout", "0.5")
    assert result.code == (1 if line else 0), (result.out, result.err)
    if line:
        assert line in result.out
        assert "kubectl -n kube-system get pods -o wide --field-selector spec.nodeName=train-a" in result.out
        assert "fabric-" in result.err.splitlines()[-1]
    else:
        assert result.out.startswith("all 1 nodes converged in ")


def test_check_warns_about_a_foreign_p5_whose_efa_plugin_sees_too_few_interfaces(
    kube_standin: KubeStandin, gpuready: Cli
) -> None:
    kube_standin.store.add(make_node("p5-a", instance_type="p5.48xlarge", taints=[GPU_TAINT],
                                     capacity={"nvidia.com/gpu": "8", EFA_RESOURCE: "8"}))  # fmt: skip
    kube_standin.store.add(make_node("p5-b", instance_type="p5.48xlarge", taints=[GPU_TAINT],
                                     capacity={"nvidia.com/gpu": "8"}))  # fmt: skip
    result = gpuready("check")
    assert result.code == 0, result.err
    assert "p5-a: warning fabric-devices-short" in result.out
    assert f"efa {EFA_RESOURCE}: fewer devices than the type has; got 8, expected 32" in result.out
    assert "p5-b: warning fabric" not in result.out  # a p5 without the EFA plugin is not asked for EFA
