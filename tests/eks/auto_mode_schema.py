"""The EKS Auto Mode NodeClass schema the tests validate against: datreeio/CRDs-catalog's, with
``spec.capacityReservationSelectorTerms`` grafted in from Karpenter's EC2NodeClass CRD v1.14.1.

Why a graft: AWS documents ``capacityReservationSelectorTerms`` on the Auto Mode NodeClass (Amazon EKS User Guide,
"Control deployment of workloads into Capacity Reservations with EKS Auto Mode",
https://docs.aws.amazon.com/eks/latest/userguide/auto-odcr.html; source awsdocs/amazon-eks-user-guide
``latest/ug/automode/auto-odcr.adoc`` @4f3d5005, PR #1110: terms by ``id`` or ``tags``), but the NodeClass schema in
../shared (``crds-catalog/eks.amazonaws.com/nodeclass_v1.json``, datreeio/CRDs-catalog ``7b1e26ef``, also its
newest snapshot) has no such property, and AWS publishes no NodeClass CRD. Auto Mode runs Karpenter (its NodePool
is ``karpenter.sh/v1``), and the documented terms are Karpenter's: the machine-readable shape of the field, its
``id`` pattern, tag limits, term count and CEL rules, is taken from aws/karpenter-provider-aws v1.14.1
``pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml`` (../shared ``karpenter-aws/...v1.14.1.yaml`` L256-294).
Everything else of the NodeClass stays the catalog's, strict. Fields Auto Mode does not document (``ownerID``,
``instanceMatchCriteria``) are refused by gpuready before any object is made (``gpuready.eks.auto_mode_capacity``),
so the graft's looser items never decide a test. ``test_auto_mode_capacity.py`` compares the graft with the
catalog's own property once ../shared holds a schema that has one (skipped until then).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Mapping
from typing import Any

from tests.crd_schemas import crd_schema, json_schema, problems_against

NODE_CLASS_SCHEMA = "crds-catalog/eks.amazonaws.com/nodeclass_v1.json"
EC2_NODE_CLASS_CRD = "karpenter-aws/karpenter.k8s.aws_ec2nodeclasses.v1.14.1.yaml"
FIELD = "capacityReservationSelectorTerms"


def karpenter_property() -> Mapping[str, Any]:
    """``spec.capacityReservationSelectorTerms`` of Karpenter's EC2NodeClass CRD v1.14.1."""
    schema = crd_schema(EC2_NODE_CLASS_CRD, "karpenter.k8s.aws/v1")
    return schema["properties"]["spec"]["properties"][FIELD]  # type: ignore[no-any-return]


def own_property() -> Mapping[str, Any] | None:
    """The Auto Mode schema's own ``spec.capacityReservationSelectorTerms``, None while it has none."""
    return json_schema(NODE_CLASS_SCHEMA)["properties"]["spec"]["properties"].get(FIELD)  # type: ignore[no-any-return]


@functools.cache
def grafted_schema() -> Mapping[str, Any]:
    """The Auto Mode NodeClass schema with Karpenter's property in ``spec`` (its own, once it has one)."""
    schema = copy.deepcopy(dict(json_schema(NODE_CLASS_SCHEMA)))
    spec = schema["properties"]["spec"]
    spec["properties"].setdefault(FIELD, copy.deepcopy(dict(karpenter_property())))
    return schema


def node_class_problems(obj: Mapping[str, Any]) -> list[str]:
    """Every way ``obj`` breaks the grafted NodeClass schema (strict) and its CEL rules."""
    return problems_against(grafted_schema(), obj)
