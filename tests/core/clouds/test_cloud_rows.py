"""The rows each cloud registers through its profile for code that names no cloud: the labels its GPU nodes carry
(verification), its provider's faked answers (the offline engine) and its add-on resource (the policy pack, the
plan)."""

from __future__ import annotations

import pytest

from gpuready.core.catalog.gpus import GPU_MODELS
from gpuready.core.clouds.registry import cloud_names, cloud_profile, cloud_profiles


def test_no_two_clouds_answer_the_same_token() -> None:
    outputs = [token for p in cloud_profiles() for token in p.offline_answers.outputs]
    invokes = [token for p in cloud_profiles() for token in p.offline_answers.invokes]
    assert len(outputs) == len(set(outputs)) and len(invokes) == len(set(invokes))
    assert outputs and invokes


@pytest.mark.parametrize("cloud", cloud_names())
def test_a_cloud_s_accelerator_label_names_each_gpu_it_has_a_name_for(cloud: str) -> None:
    labels = cloud_profile(cloud).node_labels
    named = {m.key: value for m in GPU_MODELS.values() if (value := labels.accelerator_value(m))}
    assert bool(named) == bool(labels.accelerator)
    for key, value in named.items():
        model = labels.accelerator_model(value)
        assert model is not None and model.key == key
    assert labels.accelerator_model("nvidia-none") is None


@pytest.mark.parametrize("cloud", cloud_names())
def test_a_cloud_s_node_labels_are_label_keys_and_its_partition_label_says_why_and_how(cloud: str) -> None:
    labels = cloud_profile(cloud).node_labels
    keys = [labels.accelerator, labels.partition_size, labels.shared_clients, labels.sharing_strategy]
    keys += [labels.gpu_marker[0]] if labels.gpu_marker else []
    assert all("/" in key for key in keys if key)
    assert bool(labels.partition_size) == bool(labels.partition_cause) == bool(labels.partition_fix)
    assert bool(labels.shared_clients) == bool(labels.sharing_strategy)
    assert bool(labels.shared_clients) == cloud_profile(cloud).cloud_sharing_labels  # verification expects them


def test_only_clouds_with_an_add_on_resource_name_its_fields() -> None:
    addons = [p.addon_resource for p in cloud_profiles() if p.addon_resource is not None]
    assert addons and all(a.type.count(":") == 2 and a.name_field and a.values_field for a in addons)
