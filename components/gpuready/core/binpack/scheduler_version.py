"""Which kube-scheduler release the bin-packing scheduler runs: from an image tag or the cluster's version. Pure.

Images are ``registry.k8s.io/kube-scheduler:v1.MINOR.PATCH``. A cluster version as EKS or GKE reports it
(``1.33.4-eks-1a2b3c``, ``v1.33.5-gke.1000``) carries the upstream patch before its suffix. A minor-only
version (``1.33``) names no image: choosing its newest patch needs a registry lookup, which pure code does
not do, so the user adds ``patchVersion`` or gives ``kubeSchedulerVersion``. Version skew policy
(kubernetes.io/releases/version-skew-policy): kube-scheduler must not be newer than the API server and may
be at most one minor older.
"""

from __future__ import annotations

import re

from gpuready.core.binpack.scheduler_fields import MIN_KUBE_MINOR, SchedulerFields
from gpuready.errors import Problem

_SCHEDULER_VERSION = re.compile(r"^v1\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\Z")
CLUSTER_VERSION = re.compile(r"^v?1\.(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*)(?:[-+][0-9A-Za-z][-+.0-9A-Za-z]*)?)?\Z")
"""A cluster version as ``kubectl version`` or the cloud reports it: group 1 the minor, group 2 the patch."""
VERSION_FORMS = (
    "kubeSchedulerVersion: v1.33.4",
    "clusterVersion: 1.33.4-eks-...",
    "clusterVersion: 1.33 + patchVersion",
)
"""The three ways to name the release, for error messages."""

ClusterVersion = tuple[int, int | None]
"""Minor and patch (None when the version names only a minor)."""


def resolve_version(spec: SchedulerFields, problems: list[Problem]) -> str | None:
    """The release to run (``v1.33.4``), or None after adding to ``problems`` why there is none."""
    cluster = _parse_cluster_version(spec, problems)
    patch_ok = _check_patch(spec, cluster, problems)
    if spec.kube_scheduler_version is not None:
        return _explicit_version(spec.kube_scheduler_version, cluster, problems)
    if cluster is None:
        if spec.cluster_version is None:
            problems.append(
                Problem(
                    "kubeSchedulerVersion",
                    "required: the kube-scheduler release to run",
                    None,
                    VERSION_FORMS,
                    "set kubeSchedulerVersion to the control plane's version (kubectl version), e.g. v1.33.4",
                )
            )
        return None
    minor, cluster_patch = cluster
    patch = cluster_patch if cluster_patch is not None else spec.patch_version
    if patch is None:
        problems.append(
            Problem(
                "clusterVersion",
                "names only a minor version; a kube-scheduler image needs MAJOR.MINOR.PATCH, and gpuready does not "
                "guess a patch (that would need a registry lookup)",
                spec.cluster_version,
                VERSION_FORMS,
                f"add patchVersion (the cluster's patch from kubectl version, e.g. 4 for v1.{minor}.4), or set "
                f"kubeSchedulerVersion: v1.{minor}.4",
            )
        )
        return None
    return f"v1.{minor}.{patch}" if patch_ok else None


def _check_patch(spec: SchedulerFields, cluster: ClusterVersion | None, problems: list[Problem]) -> bool:
    patch = spec.patch_version
    if patch is None:
        return True
    if isinstance(patch, bool) or not isinstance(patch, int) or patch < 0:
        problem = "must be a whole number, 0 or more"
    elif spec.kube_scheduler_version is not None:
        problem = "kubeSchedulerVersion already names the patch"
    elif spec.cluster_version is None:
        problem = "only completes a minor-only clusterVersion such as 1.33"
    elif cluster is not None and cluster[1] is not None and cluster[1] != patch:
        problem = f"disagrees with the patch in clusterVersion ({cluster[1]})"
    else:
        return True
    problems.append(
        Problem("patchVersion", problem, patch, VERSION_FORMS, "remove patchVersion, or give clusterVersion as 1.MINOR")
    )
    return False


def _parse_cluster_version(spec: SchedulerFields, problems: list[Problem]) -> ClusterVersion | None:
    text = spec.cluster_version
    if text is None:
        return None
    match = CLUSTER_VERSION.match(text)
    if not match:
        problems.append(
            Problem(
                "clusterVersion",
                "not a Kubernetes version",
                text,
                ("1.33", "v1.33.4", "1.33.4-eks-1a2b3c", "v1.33.5-gke.1000"),
                "copy the server version kubectl version prints, or the cluster's version in the cloud console",
            )
        )
        return None
    minor = int(match.group(1))
    if not _supported_minor("clusterVersion", text, minor, problems):
        return None
    return minor, int(match.group(2)) if match.group(2) is not None else None


def _explicit_version(text: str, cluster: ClusterVersion | None, problems: list[Problem]) -> str | None:
    match = _SCHEDULER_VERSION.match(text)
    if not match:
        problems.append(
            Problem(
                "kubeSchedulerVersion",
                "not a kube-scheduler image tag",
                text,
                ("v1.MINOR.PATCH, e.g. v1.33.4",),
                "registry.k8s.io/kube-scheduler tags are v1.MINOR.PATCH; set clusterVersion for a version with a "
                "cloud suffix",
            )
        )
        return None
    minor = int(match.group(1))
    if not _supported_minor("kubeSchedulerVersion", text, minor, problems):
        return None
    if cluster is not None and not cluster[0] - 1 <= minor <= cluster[0]:
        problems.append(
            Problem(
                "kubeSchedulerVersion",
                f"outside the version skew policy for a v1.{cluster[0]} control plane (kube-scheduler must not be "
                "newer than the API server and may be at most one minor older)",
                text,
                (f"v1.{cluster[0]}.x", f"v1.{cluster[0] - 1}.x"),
                "match the cluster's minor version",
            )
        )
        return None
    return text


def _supported_minor(path: str, text: str, minor: int, problems: list[Problem]) -> bool:
    if minor >= MIN_KUBE_MINOR:
        return True
    problems.append(
        Problem(
            path,
            f"kube-scheduler reads kubescheduler.config.k8s.io/v1 only from v1.{MIN_KUBE_MINOR}",
            text,
            (f"v1.{MIN_KUBE_MINOR} or newer",),
            "upgrade the cluster first",
        )
    )
    return False
