"""Refusals every provisioner whose pool is a custom resource shares (``Provisioner.spec_problems`` helpers). Pure.

The pool's name names the object (a DNS subdomain), and the pool keys that configure a fixed node group have no
meaning for it: each provisioner says what to do instead.
"""

from __future__ import annotations

from collections.abc import Mapping

from gpuready.core.k8s_syntax import label_value_problem, object_name_problem, prefix_is_under
from gpuready.errors import Problem


def object_name_problems(name: object, kind: str) -> list[Problem]:
    """The pool's ``name`` as the name of its ``kind`` object (a lowercase DNS subdomain) and, bound by the tightest
    place it lands, as a label value: the ``gpuready.io/pool`` label of the object's node template and the
    provisioner's own node label naming the object (``karpenter.sh/nodepool``, ``cloud.google.com/compute-class``).
    A label value has at most 63 characters; the NodePool CRD checks its template labels so
    (kubernetes-sigs/karpenter v1.14.1 karpenter.sh_nodepools.yaml ``spec.template.metadata.labels``
    ``maxLength: 63``; in ../shared as karpenter-aws/karpenter.sh_nodepools.v1.14.1.yaml L210-214)."""
    if not isinstance(name, str):
        return []
    reason = object_name_problem(name)
    if reason is None and (value := label_value_problem(name)) is not None:
        reason = f"it is also a node label value, and {value} (got {len(name)})"
    return [Problem("name", f"names the {kind}: {reason}", name, (), "use lowercase and '-'")] if reason else []


def unsupported_problems(provisioner: str, given: Mapping[str, object], hints: Mapping[str, str]) -> list[Problem]:
    """A problem for each pool key of ``given`` set (not None) that ``provisioner`` cannot honour, with its hint."""
    return [
        Problem(key, f"is not supported by the {provisioner} provisioner", value, (), hints[key])
        for key, value in given.items()
        if value is not None
    ]


def restricted_label_problems(labels: object, domains: tuple[str, ...]) -> list[Problem]:
    """A problem for each label key under one of ``domains``, which Karpenter refuses in a NodePool template (its
    CEL rules; the few well-known labels they let through are Karpenter's own, never a user's)."""
    keys = [key for key in labels if isinstance(key, str)] if isinstance(labels, Mapping) else []
    return [
        Problem(f"labels[{key!r}]", "Karpenter refuses this label domain in a NodePool template", key, (),
                "pick a label key under your own domain")
        for key in keys
        if any(prefix_is_under(key, domain) for domain in domains)
    ]  # fmt: skip
