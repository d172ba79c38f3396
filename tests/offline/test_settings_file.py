"""gpuready's settings read from a project and a stack file without running the program (``load_settings``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuready.eks.settings_keys import EksSettingsValues
from gpuready.errors import ConfigError
from gpuready.offline.project import OfflineProjectError, load_project
from gpuready.offline.settings_file import gpuready_values, load_settings

ROOT = Path(__file__).resolve().parents[2]
PROJECT = load_project(ROOT)


def test_the_example_stacks_load_with_their_pools() -> None:
    for stack in ("eks-dev", "aks-dev", "gke-dev"):
        settings = load_settings(PROJECT, stack)
        assert settings.cloud == stack.split("-")[0]
        assert settings.pools


def test_overrides_and_paths_reach_the_settings() -> None:
    settings = load_settings(
        PROJECT,
        "eks-dev",
        overrides=["gpuready:clusterName=ml-prod", 'gpuready:eksSubnetIds=["subnet-0aaaaaaa","subnet-0bbbbbbb"]'],
        path_overrides=["gpuready:eksSubnetIds[2]=subnet-0ccccccc", "gpuready:verifySkipPools[0]=a10g-br"],
    )
    assert settings.cluster_name == "ml-prod"
    assert EksSettingsValues.of(settings).eks_subnet_ids == ["subnet-0aaaaaaa", "subnet-0bbbbbbb", "subnet-0ccccccc"]
    assert settings.verify_skip_pools == ("a10g-br",)


def test_an_unknown_key_of_a_config_file_is_refused_with_a_close_suggestion(tmp_path: Path) -> None:
    text = (ROOT / "stacks" / "Pulumi.gke-dev.yaml").read_text(encoding="utf-8")
    config_file = tmp_path / "Pulumi.typo.yaml"
    config_file.write_text(text.replace("config:\n", "config:\n  gpuready:ClusterName: x\n", 1), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_settings(PROJECT, "typo", config_file=config_file)
    [problem] = info.value.problems
    assert (problem.path, problem.problem, problem.hint) == (
        "gpuready:ClusterName",
        "unknown key",
        "did you mean 'clusterName'?",
    )


def test_a_bad_override_is_an_input_error() -> None:
    with pytest.raises(OfflineProjectError, match="array index out of range"):
        load_settings(PROJECT, "eks-dev", path_overrides=["gpuready:tags[5]=a=b"])


def test_only_gpuready_keys_are_settings() -> None:
    bag = {"gpuready:cloud": "eks", "aws:region": "us-east-1", "gpureadyx:cloud": "aks", "gpuready:tags": '["a=b"]'}
    assert gpuready_values(bag) == {"cloud": "eks", "tags": '["a=b"]'}
