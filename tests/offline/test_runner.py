"""Running fixture programs offline: capture, plans, exceptions and isolation between runs."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pulumi
import pytest
from pulumi.runtime import rpc

from gpuready.errors import ConfigError
from gpuready.offline import runner
from gpuready.offline.capture import CapturedRun
from gpuready.offline.plan import build_plan, render_tree
from gpuready.offline.project import OfflineProjectError, load_project
from gpuready.offline.pulumi_config import load_stack_config
from gpuready.offline.runner import run_program
from tests.pulumi_mocks import failing_program

FIXTURES = Path(__file__).parent / "fixtures"
PREFIX = "urn:pulumi:dev::gpufix::"
STACK_URN = f"{PREFIX}pulumi:pulumi:Stack::gpufix-dev"
CLUSTER_URN = f"{PREFIX}gpuready:test:Cluster::main"
POOL_URN = f"{PREFIX}gpuready:test:Cluster$gpuready:test:GpuPool::main-gpu"
NODE_GROUP_URN = f"{PREFIX}gpuready:test:Cluster$gpuready:test:GpuPool$aws:eks/nodeGroup:NodeGroup::main-gpu-ng"
PROVIDER_URN = f"{PREFIX}gpuready:test:Cluster$pulumi:providers:aws::main-aws"


def _run(name: str, *, preview: bool = False, overrides: tuple[str, ...] = ()) -> CapturedRun:
    project = load_project(FIXTURES / name)
    config = load_stack_config(project, "dev", overrides=overrides)
    return run_program(
        project.program_dir,
        project=project.name,
        stack="dev",
        config=config.values,
        secret_keys=config.secret_keys,
        preview=preview,
    )


@pytest.fixture
def gpu_run() -> CapturedRun:
    return _run("gpu_pool")


@pytest.fixture
def restore_gc() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_the_monitor_records_every_registration_but_the_stack(gpu_run: CapturedRun) -> None:
    assert [(r.urn, r.custom) for r in gpu_run.resources] == [
        (NODE_GROUP_URN, True),
        (POOL_URN, False),
        (PROVIDER_URN, True),
        (CLUSTER_URN, False),
    ]
    assert gpu_run.stack_urn == STACK_URN
    assert (gpu_run.project, gpu_run.stack, gpu_run.preview) == ("gpufix", "dev", False)


def test_records_keep_the_raw_struct_provider_reference_and_decoded_inputs(gpu_run: CapturedRun) -> None:
    node_group = gpu_run.resources[0]
    assert node_group.type == "aws:eks/nodeGroup:NodeGroup"
    assert node_group.parent == POOL_URN
    assert node_group.provider == f"{PROVIDER_URN}::main-aws_id"
    assert node_group.object["amiType"] == "AL2_x86_64_GPU"  # the protobuf Struct, as sent
    assert rpc.deserialize_properties(node_group.object) == node_group.inputs
    assert node_group.inputs["scalingConfig"] == {"desiredSize": 3.0, "maxSize": 6.0, "minSize": 0.0}
    assert set(node_group.property_dependencies) >= {"amiType", "scalingConfig"}


def test_plan_inputs_are_camel_case_with_whole_numbers_as_int(gpu_run: CapturedRun) -> None:
    inputs = build_plan(gpu_run).resources[0].inputs
    assert inputs["amiType"] == "AL2_x86_64_GPU"
    assert inputs["instanceTypes"] == ["g5.xlarge", "g5.2xlarge"]
    assert inputs["taints"] == [{"effect": "NO_SCHEDULE", "key": "nvidia.com/gpu", "value": "present"}]
    scaling = inputs["scalingConfig"]
    assert scaling == {"desiredSize": 3, "maxSize": 6, "minSize": 0}
    assert isinstance(scaling, dict)
    assert all(type(v) is int for v in scaling.values())


def test_plan_parents_are_engine_urns_with_the_full_type_chain(gpu_run: CapturedRun) -> None:
    parents = {(r.type, r.name): r.parent for r in build_plan(gpu_run).resources}
    assert parents == {
        ("gpuready:test:Cluster", "main"): STACK_URN,
        ("pulumi:providers:aws", "main-aws"): CLUSTER_URN,
        ("gpuready:test:GpuPool", "main-gpu"): CLUSTER_URN,
        ("aws:eks/nodeGroup:NodeGroup", "main-gpu-ng"): POOL_URN,
    }


def test_exports_come_from_the_stack_outputs_with_secrets_masked(gpu_run: CapturedRun) -> None:
    assert build_plan(gpu_run).outputs == {
        "apiToken": "[secret]",
        "clusterName": "demo",
        "desiredSize": 3,
        "monitoring": False,
        "nodeGroupName": "main-gpu-ng",
        "region": "eu-west-1",
        "scaling": {"desiredSize": 3, "maxSize": 6, "minSize": 0},
    }
    assert build_plan(gpu_run, show_secrets=True).outputs["apiToken"] == "[secret]"  # the placeholder itself


def test_preview_shows_outputs_the_mocks_do_not_return_as_unknown() -> None:
    run = _run("gpu_pool", preview=True)
    assert run.preview is True
    assert build_plan(run).outputs["nodeGroupArn"] == "[unknown]"


def test_config_overrides_reach_the_program() -> None:
    run = _run("gpu_pool", overrides=("desiredSize=5",))
    assert build_plan(run).resources[0].inputs["scalingConfig"] == {"desiredSize": 5, "maxSize": 10, "minSize": 0}


def test_plans_are_identical_from_run_to_run() -> None:
    plans = [build_plan(_run("gpu_pool")) for _ in range(3)]
    dumps = {json.dumps(p.to_json_dict(), sort_keys=False) for p in plans}
    assert len(dumps) == 1
    assert {render_tree(p) for p in plans} == {
        "pulumi:pulumi:Stack  gpufix-dev\n"
        "└─ gpuready:test:Cluster  main\n"
        "   ├─ gpuready:test:GpuPool  main-gpu\n"
        "   │  └─ aws:eks/nodeGroup:NodeGroup  main-gpu-ng\n"
        "   └─ pulumi:providers:aws  main-aws  [additionalSecretOutputs: accessKey, secretKey, token]\n"
    }


def test_program_exceptions_propagate_unchanged_and_leave_nothing_behind() -> None:
    with pytest.raises(ConfigError) as info:
        _run("failing")
    assert [p.path for p in info.value.problems] == ["pools[0].gpuModel"]
    assert str(info.value) == "pools[0].gpuModel: unknown GPU model; got 'H100'. Allowed: A100-80GB, L4"
    after = _run("gpu_pool")
    assert "before-failure" not in {r.name for r in after.resources}
    assert "never" not in after.outputs


def test_two_programs_in_one_process_see_nothing_of_each_other() -> None:
    first, second, third = _run("gpu_pool"), _run("other_program"), _run("gpu_pool")
    assert [r.urn for r in second.resources] == [
        "urn:pulumi:dev::otherfix::aws:sqs/queue:Queue::jobs-0",
        "urn:pulumi:dev::otherfix::aws:sqs/queue:Queue::jobs-1",
    ]
    assert build_plan(second).outputs == {  # pulumi.run's returned exports land too
        "queueIds": ["jobs-0_id", "jobs-1_id"],
        "count": 2,
        "source": "pulumi.run",
    }
    assert [r.urn for r in first.resources] == [r.urn for r in third.resources]
    assert first.outputs.keys() == third.outputs.keys() == build_plan(first).outputs.keys()
    assert not {"queueIds", "count", "source"} & set(third.outputs)


def test_the_caller_process_is_left_as_it_was(restore_gc: None) -> None:
    cwd, path, root = Path.cwd(), list(sys.path), pulumi.runtime.get_root_resource()
    gc.disable()
    _run("other_program")
    assert not gc.isenabled()
    gc.enable()
    _run("gpu_pool")
    assert gc.isenabled()
    assert (Path.cwd(), sys.path, pulumi.runtime.get_root_resource()) == (cwd, path, root)
    assert "pool" not in sys.modules  # each fixture's own pool.py is forgotten after its run


def test_the_caller_s_pulumi_config_variables_are_hidden_during_a_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps({"otherfix:queueCount": "5"}))
    project = load_project(FIXTURES / "other_program")
    with pytest.raises(pulumi.ConfigMissingError, match="otherfix:queueCount"):
        run_program(project.program_dir, project="otherfix", stack="dev", config={}, secret_keys=())
    assert json.loads(os.environ["PULUMI_CONFIG"]) == {"otherfix:queueCount": "5"}


def test_the_program_lists_its_own_config_bag_as_the_language_host_passes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``PULUMI_CONFIG`` / ``PULUMI_CONFIG_SECRET_KEYS`` hold this run's bag (not the caller's) while it runs."""
    monkeypatch.setenv("PULUMI_CONFIG", json.dumps({"caller:key": "x"}))
    (tmp_path / "__main__.py").write_text(
        "import json, os\nimport pulumi\n"
        "pulumi.export('keys', sorted(pulumi.runtime.get_config_env()))\n"
        "pulumi.export('secret', json.loads(os.environ['PULUMI_CONFIG_SECRET_KEYS']))\n",
        "utf-8",
    )
    config = {"p:a": "1", "p:typo": "2", "aws:region": "r"}
    captured = run_program(tmp_path, project="p", stack="dev", config=config, secret_keys=["p:a"])
    assert captured.outputs == {"keys": ["aws:region", "p:a", "p:typo"], "secret": ["p:a"]}
    assert json.loads(os.environ["PULUMI_CONFIG"]) == {"caller:key": "x"}
    assert "PULUMI_CONFIG_SECRET_KEYS" not in os.environ


def test_a_directory_without_main_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(OfflineProjectError, match=r"has no __main__\.py"):
        run_program(tmp_path, project="p", stack="dev", config={}, secret_keys=())


def test_running_inside_an_event_loop_works_on_its_own_thread() -> None:
    """The run gets a fresh thread and loop, so a caller's running loop is neither needed nor disturbed."""

    async def inside() -> CapturedRun:
        return _run("gpu_pool")

    loop = asyncio.new_event_loop()  # not asyncio.run: that would unset this thread's loop
    try:
        captured = loop.run_until_complete(inside())
    finally:
        loop.close()
    assert captured.resources


def test_a_failure_inside_an_apply_still_propagates() -> None:
    """The runner settles pending outputs before the SDK's drain; a failed output must still fail the run."""
    with failing_program(), pytest.raises(ValueError, match="boom inside an apply"):
        run_program(FIXTURES / "async_failure", project="asyncfix", stack="dev", config={}, secret_keys=())


def test_consecutive_runs_after_an_async_failure_are_clean() -> None:
    with failing_program(), pytest.raises(ValueError, match="boom inside an apply"):
        run_program(FIXTURES / "async_failure", project="asyncfix", stack="dev", config={}, secret_keys=())
    captured = _run("gpu_pool")
    assert all(r.name != "queue" for r in captured.resources)


@pytest.mark.parametrize(
    "path",
    ["/a/b/c.py", "/a/.venv/b.py", "/a/./b.py", "/a/../b.py", "//a/b.py", "/a//b.py", "a/b.py", "./a.py", "/a/b/",
     "/a/.", "/a/..", "/", "/.hidden/x.py", "/a/b..py"],
)  # fmt: skip
def test_a_path_is_taken_as_normal_and_absolute_only_when_abspath_leaves_it(path: str) -> None:
    if runner._normal_absolute(path):
        assert os.path.abspath(path) == path
    assert runner._normal_absolute(path) is (path in {"/a/b/c.py", "/a/.venv/b.py", "/.hidden/x.py", "/a/b..py"})
