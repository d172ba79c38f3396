"""What a cloud's provider would answer that the offline engine must fake (``OfflineAnswers``): the outputs its
resources compute on create and the results of the invokes a stack program makes to reach its cluster. Pure.

Each cloud registers its answers in its package (``<cloud>/offline_answers.py``, reached through
``CloudProfile.offline_answers``); ``gpuready.offline`` only collects them, by type token and invoke token.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from typing import Any

from gpuready.record import record


@record(frozen=True, slots=True)
class Placeholders:
    """The clearly fake values every invoke answer is made of (``gpuready.offline.invoke_results``)."""

    endpoint: str
    """The API server's URL (``https://offline.invalid``: ``.invalid`` never resolves, RFC 2606)."""
    host: str
    """The same, without a scheme."""
    ca_b64: str
    """Base64 of a fixed text that is not a certificate."""
    token: str
    cluster: str
    """The cluster name echoed when an invoke names none."""
    security_group: str
    vpc: str
    kubeconfig: Callable[[str, str, str], str]
    """(cluster, server, user) -> a kubeconfig of the placeholder CA and token (``cluster_kubeconfig``'s bearer-token
    kubeconfig, passed in so the cloud's answers do not import the cluster access code)."""


ComputedOutputs = Callable[[str, Mapping[str, Any]], dict[str, Any]]
"""(resource name, inputs as wire names) -> the outputs the provider computes on create that the inputs lack."""
InvokeAnswer = Callable[[Mapping[str, Any], Placeholders], dict[str, Any]]
"""(invoke arguments as wire names, placeholders) -> a result of the provider's shape."""


@record(frozen=True, slots=True)
class OfflineAnswers:
    """One cloud's faked provider answers."""

    outputs: Mapping[str, ComputedOutputs] = field(default_factory=dict)
    """Resource type token -> its computed outputs."""
    invokes: Mapping[str, InvokeAnswer] = field(default_factory=dict)
    """Invoke token -> its answer."""
