"""Every private name of the Pulumi SDKs the offline engine uses, in one place (pinned ``pulumi==3.272.0``).

No other module imports a private SDK name; ``tests/offline/test_sdk_private.py`` checks each one's existence and
signature and fails with "pulumi X.Y changed <name>" when an SDK upgrade breaks it.

- ``pulumi.runtime.settings.SETTINGS`` (``.lock``, ``.outputs``) and ``_get_rpc_manager().rpcs``: the runner waits
  for the program's pending outputs and RPCs before reading the capture; the SDK only waits inside
  ``pulumi.runtime.test``/``run_in_stack`` and exposes no public way to list what is still pending.
- ``pulumi.runtime.mocks.MockMonitor``, ``MockEngine``, ``MockSettings``: ``set_mocks`` builds these itself but
  cannot take a monitor subclass that records registrations (the capture) nor a project/stack/root directory per
  run; they are not exported from ``pulumi.runtime``.
- ``pulumi_policy.policy._PolicyAnalyzerServicer`` and its methods ``_configure_runtime_settings``,
  ``_get_policy_config``, ``_get_provider_resource``, ``_get_resource_options``: pulumi-policy serves a pack only
  over gRPC from ``PolicyPack.__init__`` (which blocks in ``serve``); the servicer is the analyzer protocol
  without the server, and the methods let the in-process run decode each resource once.
- ``pulumi_policy.policy._NotApplicableError``: what a policy raises through ``args.not_applicable``; the run
  reports it the way the servicer does.
"""

from __future__ import annotations

from pulumi.runtime.mocks import MockEngine, MockMonitor, MockSettings
from pulumi.runtime.settings import SETTINGS, _get_rpc_manager
from pulumi_policy.policy import _NotApplicableError, _PolicyAnalyzerServicer

SERVICER_METHODS = (
    "_configure_runtime_settings",
    "_get_policy_config",
    "_get_provider_resource",
    "_get_resource_options",
)
"""The private ``_PolicyAnalyzerServicer`` methods ``policy_run.py`` calls."""

__all__ = [
    "SERVICER_METHODS",
    "SETTINGS",
    "MockEngine",
    "MockMonitor",
    "MockSettings",
    "_NotApplicableError",
    "_PolicyAnalyzerServicer",
    "_get_rpc_manager",
]
