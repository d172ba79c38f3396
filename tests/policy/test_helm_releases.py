"""GPU Operator / device-plugin Helm release rules, pass and fail, on raw ``kubernetes:helm.sh/v3:Release`` props."""

from __future__ import annotations

from typing import Any

import pytest

from tests.policy.builders import POOL_SELECTOR, RELEASE, operator, plugin
from tests.policy.harness import messages

SELECTOR = POOL_SELECTOR


VERSION = "gpu-helm-release-version-pinned"
NAMESPACE = "gpu-helm-release-not-in-default-namespace"
TIMEOUT = "gpu-helm-release-timeout"
NFD_KEY = "gpu-helm-release-nfd-values-key"
NFD_SELECTOR = "gpu-helm-release-nfd-worker-restricted"
TOLERATIONS = "gpu-helm-release-tolerations-use-exists"
NFD_DEFAULT_SELECTOR = {"node-feature-discovery": {"worker": {"nodeSelector": SELECTOR}}}


@pytest.mark.parametrize(
    ("policy", "props", "expected"),
    [
        (VERSION, operator(), None),
        (VERSION, plugin(), None),
        (VERSION, operator(version=None), "Pin version: 'v26.7.0'"),
        (VERSION, operator(version="26.7.0"), "start with 'v'"),
        (VERSION, plugin(version="v0.20.0"), "not an allowed nvidia-device-plugin chart version"),
        (VERSION, operator(chart="nvidia/gpu-operator", version=None), "not set"),
        (VERSION, operator(chart="oci://ghcr.io/nvidia/gpu-operator/charts/gpu-operator", version=None), "not set"),
        (VERSION, {"chart": "cert-manager", "namespace": "cert-manager"}, None),
        (NAMESPACE, operator(), None),
        (NAMESPACE, operator(namespace=None), "not set (the provider's default namespace)"),
        (NAMESPACE, plugin(namespace="default"), "Set namespace: 'nvidia-device-plugin'"),
        (TIMEOUT, operator(), None),
        (TIMEOUT, operator(timeout=300), "300 s is too short"),
        (TIMEOUT, operator(timeout=None), "300 s (Helm's default)"),
        (TIMEOUT, operator(timeout=None, skipAwait=True), None),
        (NFD_KEY, operator(), None),
        (NFD_KEY, operator({"nfd": {"enabled": False, "nodefeaturerules": True}}), None),
        (NFD_KEY, operator({"nfd": {"worker": {"nodeSelector": SELECTOR}}}), "values.nfd.worker: the gpu-operator"),
        (NFD_KEY, operator({"nfd": {"worker": {}}}), "Move it under values.node-feature-discovery.worker"),
        (NFD_KEY, operator({"nodeFeatureDiscovery": {"worker": {}}}), "values.nodeFeatureDiscovery"),
        (NFD_KEY, plugin(), None),
        (NFD_KEY, plugin({"node-feature-discovery": {"worker": {}}}), "Move it under values.nfd"),
        (NFD_SELECTOR, operator(), None),
        (NFD_SELECTOR, operator({}), "runs on every node of the cluster"),
        (NFD_SELECTOR, operator({"nfd": {"enabled": False}}), None),
        (
            NFD_SELECTOR,
            operator(
                {
                    "node-feature-discovery": {
                        "worker": {"nodeSelector": {"feature.node.kubernetes.io/pci-10de.present": "true"}}
                    }
                }
            ),
            "labels NFD itself writes",
        ),
        (NFD_SELECTOR, plugin(), None),
        (NFD_SELECTOR, plugin({}), None),  # gfd off: the plugin chart deploys no NFD
        (NFD_SELECTOR, plugin({"gfd": {"enabled": True}}), "values.nfd.worker.nodeSelector: not set"),
        (NFD_SELECTOR, plugin({"nfd": {"enabled": True}}), "values.nfd.worker.nodeSelector: not set"),
        (TOLERATIONS, operator(), None),
        (
            TOLERATIONS,
            operator(
                {**NFD_DEFAULT_SELECTOR, "daemonsets": {"tolerations": [{"key": "dedicated", "operator": "Exists"}]}}
            ),
            "does not tolerate nvidia.com/gpu",
        ),
        (
            TOLERATIONS,
            operator(
                {
                    **NFD_DEFAULT_SELECTOR,
                    "daemonsets": {"tolerations": [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}]},
                }
            ),
            "only with value 'present'",
        ),
        (
            TOLERATIONS,
            operator({**NFD_DEFAULT_SELECTOR, "daemonsets": {"tolerations": [{"operator": "Exists"}]}}),
            None,
        ),
        (TOLERATIONS, plugin(), None),
        (TOLERATIONS, plugin({}), None),
        (TOLERATIONS, plugin({"gfd": {"enabled": True}}), "values.nfd.worker.tolerations (the chart default)"),
    ],
)
def test_release_rule(policy: str, props: dict[str, Any], expected: str | None) -> None:
    found = messages(policy, [(RELEASE, props)])
    if expected is None:
        assert found == []
    else:
        assert found, f"{policy} found nothing"
        assert any(expected in m for m in found), found


def test_allowed_versions_come_from_config() -> None:
    config = {VERSION: {"allowedVersions": {"gpu-operator": ["v26.3.3"]}}}
    assert "Allowed: ['v26.3.3']" in messages(VERSION, [(RELEASE, operator())], config=config)[0]
    assert messages(VERSION, [(RELEASE, plugin())], config=config) == []  # the other chart keeps its default


def test_min_timeout_comes_from_config() -> None:
    config = {TIMEOUT: {"minTimeoutSeconds": 3600}}
    assert "Set timeout: 3600 or more" in messages(TIMEOUT, [(RELEASE, operator())], config=config)[0]


def test_other_helm_charts_are_left_alone() -> None:
    props = {"chart": "ingress-nginx", "namespace": "default", "timeout": 60, "values": {"nfd": {"worker": {}}}}
    for policy in (VERSION, NAMESPACE, TIMEOUT, NFD_KEY, NFD_SELECTOR, TOLERATIONS):
        assert messages(policy, [(RELEASE, props)]) == []


NETWORK_OPERATOR = {"chart": "network-operator", "namespace": "nvidia-network-operator", "version": "26.1.2"}
EFA_PLUGIN = {"chart": "aws-efa-k8s-device-plugin", "namespace": "kube-system", "version": "v0.5.30"}


@pytest.mark.parametrize(
    ("props", "expected"),
    [
        (NETWORK_OPERATOR, None),
        ({**NETWORK_OPERATOR, "chart": "nvidia/network-operator"}, None),
        ({**NETWORK_OPERATOR, "version": "25.7.0"}, "'25.7.0' is not an allowed network-operator chart version. "
                                                    "Allowed: ['26.1.2']"),
        ({**NETWORK_OPERATOR, "version": None}, "Pin version: '26.1.2'"),
        (EFA_PLUGIN, None),
        ({**EFA_PLUGIN, "version": "v0.5.6"}, "not an allowed aws-efa-k8s-device-plugin chart version"),
    ],
    ids=["network-operator", "network-operator-repo-prefixed", "network-operator-old", "network-operator-unpinned",
         "efa-plugin", "efa-plugin-old"],
)  # fmt: skip
def test_the_fabric_charts_pin_the_version_gpuready_installs(props: dict[str, Any], expected: str | None) -> None:
    found = messages(VERSION, [(RELEASE, props)])
    assert found == [] if expected is None else (len(found) == 1 and expected in found[0]), found


def test_a_fabric_charts_allowed_versions_come_from_config() -> None:
    config = {VERSION: {"allowedVersions": {"network-operator": ["25.7.0"]}}}
    found = messages(VERSION, [(RELEASE, NETWORK_OPERATOR)], config=config)
    assert found and "Allowed: ['25.7.0']" in found[0]
