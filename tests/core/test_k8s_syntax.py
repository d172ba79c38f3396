"""Kubernetes label key, label value and taint syntax (apimachinery IsQualifiedName / IsValidLabelValue)."""

from __future__ import annotations

import pytest

from gpuready.core import k8s_syntax

NAME_63 = "a" * 63
PREFIX_253 = ".".join(["a" * 63, "b" * 63, "c" * 63, "d" * 61])


@pytest.mark.parametrize(
    "key",
    [
        "team",
        "a",
        "A",
        "example.com/team",
        "nvidia.com/gpu",
        "node-role.kubernetes.io/gpu",
        "my_key",
        "my.key-1",
        "Team_Name.v2",
        NAME_63,
        f"example.com/{NAME_63}",
        f"{PREFIX_253}/x",
        "9lives",
    ],
)
def test_valid_qualified_name(key: str) -> None:
    assert k8s_syntax.qualified_name_problem(key) is None


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "a key must not be empty"),
        ("a/b/c", "a key has at most one '/'"),
        ("/team", "the prefix before '/' must not be empty"),
        ("Example.com/team", "the prefix must be a lowercase DNS subdomain"),
        ("example_com/team", "the prefix must be a lowercase DNS subdomain"),
        ("-example.com/team", "the prefix must be a lowercase DNS subdomain"),
        (f"{PREFIX_253}a/x", "at most 253 characters"),
        ("a" * 64, "the name part must be at most 63 characters"),
        (f"example.com/{'a' * 64}", "the name part must be at most 63 characters"),
        ("example.com/", "the name part must be alphanumeric"),
        ("-team", "starting and ending alphanumeric"),
        ("team-", "starting and ending alphanumeric"),
        ("te am", "the name part must be alphanumeric"),
        ("team:gpu", "the name part must be alphanumeric"),
        ("tëam", "the name part must be alphanumeric"),
    ],
)
def test_invalid_qualified_name(key: str, reason: str) -> None:
    problem = k8s_syntax.qualified_name_problem(key)
    assert problem is not None
    assert reason in problem


@pytest.mark.parametrize("value", ["", "x", "true", "ml-team", "v1.2_3", NAME_63, "9", "A-Z"])
def test_valid_label_value(value: str) -> None:
    assert k8s_syntax.label_value_problem(value) is None


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("a" * 64, "a value must be at most 63 characters"),
        ("-x", "starting and ending alphanumeric"),
        ("x.", "starting and ending alphanumeric"),
        ("a b", "a value must be alphanumeric"),
        ("a/b", "a value must be alphanumeric"),
        ("a=b", "a value must be alphanumeric"),
    ],
)
def test_invalid_label_value(value: str, reason: str) -> None:
    problem = k8s_syntax.label_value_problem(value)
    assert problem is not None
    assert reason in problem


@pytest.mark.parametrize(
    ("key", "value"), [("example.com/team\n", "ml"), ("team", "ml\n"), ("example.com\n/team", "ml")]
)
def test_trailing_newline_is_not_valid_syntax(key: str, value: str) -> None:
    assert k8s_syntax.qualified_name_problem(key) is not None or k8s_syntax.label_value_problem(value) is not None


@pytest.mark.parametrize(
    ("key", "prefix"),
    [("nvidia.com/gpu", "nvidia.com"), ("team", ""), ("a.b.c/d", "a.b.c"), ("/x", "")],
)
def test_key_prefix(key: str, prefix: str) -> None:
    assert k8s_syntax.key_prefix(key) == prefix


@pytest.mark.parametrize(
    ("key", "domain", "under"),
    [
        ("kubernetes.io/hostname", "kubernetes.io", True),
        ("node.kubernetes.io/instance-type", "kubernetes.io", True),
        ("topology.kubernetes.io/zone", "kubernetes.io", True),
        ("notkubernetes.io/x", "kubernetes.io", False),
        ("kubernetes.io.example.com/x", "kubernetes.io", False),
        ("kubernetes.io", "kubernetes.io", False),
        ("cloud.google.com/gke-nodepool", "cloud.google.com", True),
        ("example.com/team", "cloud.google.com", False),
    ],
)
def test_prefix_is_under(key: str, domain: str, under: bool) -> None:
    assert k8s_syntax.prefix_is_under(key, domain) is under


def test_taint_effects_are_the_kubernetes_spelling() -> None:
    assert k8s_syntax.TAINT_EFFECTS == ("NoSchedule", "PreferNoSchedule", "NoExecute")
