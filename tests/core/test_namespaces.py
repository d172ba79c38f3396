"""The namespace names in one place: which are shared (never created and deleted by gpuready), and the charts'."""

from __future__ import annotations

import pytest

from gpuready.core import namespaces
from gpuready.core.gpu_stack.kinds.device_plugin import DEVICE_PLUGIN
from gpuready.core.gpu_stack.kinds.gpu_operator import GPU_OPERATOR


@pytest.mark.parametrize(
    ("name", "shared"),
    [
        ("default", True),
        ("kube-system", True),
        ("kube-public", True),
        ("kube-node-lease", True),
        ("gpu-operator", False),
        ("gpu-scheduling", False),
        ("kubeflow", False),
    ],
)
def test_shared_namespaces(name: str, shared: bool) -> None:
    assert namespaces.is_shared(name) is shared


def test_the_charts_default_namespaces_are_their_own() -> None:
    assert (GPU_OPERATOR.namespace, DEVICE_PLUGIN.namespace) == ("gpu-operator", "nvidia-device-plugin")
    assert not any(namespaces.is_shared(n) for n in (GPU_OPERATOR.namespace, DEVICE_PLUGIN.namespace))
