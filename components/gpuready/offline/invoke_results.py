"""Clearly fake results for the cloud invokes a stack program makes to reach its cluster. Pure.

Offline plans and component tests run under Pulumi's mock runtime, where no provider answers an invoke.
Each cloud answers its provider's invokes (``CloudProfile.offline_answers``, ``<cloud>/offline_answers.py``) with
results of the provider's shape (wire names, camelCase), so the program's ``apply`` callbacks run and the
kubeconfig it builds is a real kubeconfig; every value is one of the placeholders here: the server is
``https://offline.invalid`` (``.invalid`` never resolves, RFC 2606), the CA is base64 of a fixed text that is
not a certificate, and the token is ``offline-token``. The requested cluster name is echoed back.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from functools import cache
from typing import Any

from gpuready.core.clouds.offline_answers import InvokeAnswer, Placeholders
from gpuready.core.clouds.registry import cloud_profiles, sole_owner
from gpuready.core.cluster_kubeconfig import bearer_token_kubeconfig

OFFLINE_HOST = "offline.invalid"
OFFLINE_ENDPOINT = f"https://{OFFLINE_HOST}"
OFFLINE_CA_TEXT = "gpuready offline placeholder: not a certificate\n"
OFFLINE_CA_B64 = base64.b64encode(OFFLINE_CA_TEXT.encode()).decode()
OFFLINE_TOKEN = "offline-token"
OFFLINE_CLUSTER = "offline-cluster"
"""The cluster name echoed when an invoke names none."""
OFFLINE_SECURITY_GROUP = "sg-0ff11ne"
OFFLINE_VPC = "vpc-0ff11ne"

PLACEHOLDERS = Placeholders(
    endpoint=OFFLINE_ENDPOINT,
    host=OFFLINE_HOST,
    ca_b64=OFFLINE_CA_B64,
    token=OFFLINE_TOKEN,
    cluster=OFFLINE_CLUSTER,
    security_group=OFFLINE_SECURITY_GROUP,
    vpc=OFFLINE_VPC,
    kubeconfig=lambda cluster, server, user: bearer_token_kubeconfig(
        cluster, server, OFFLINE_CA_B64, OFFLINE_TOKEN, user=user
    ),
)


@cache
def _answer(token: str) -> InvokeAnswer | None:
    """The answer of the cloud owning invoke ``token`` (a cloud answers only for types it alone owns)."""
    owner = sole_owner(token)
    return None if owner is None else owner.offline_answers.invokes.get(token)


def fake_invoke_result(token: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The fake result of invoke ``token`` called with ``args`` (wire names); ``{}`` for any other invoke."""
    answer = _answer(token)
    return answer(args, PLACEHOLDERS) if answer is not None else {}


def faked_invokes() -> frozenset[str]:
    """The invoke tokens the clouds answer (loads every cloud)."""
    return frozenset(token for p in cloud_profiles() for token in p.offline_answers.invokes)
