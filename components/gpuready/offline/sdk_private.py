"""Every private name of the Pulumi SDKs the offline engine uses, in one place (tested on pulumi 3.272.0 and
pulumi-policy 1.21.0: the lower bounds of their ranges, and the lock).

No other module imports a private SDK name; ``tests/offline/test_sdk_private.py`` checks each one's existence and
signature and fails with "pulumi X.Y changed <name>" when an SDK upgrade breaks it.

- ``pulumi.runtime.settings.SETTINGS`` (``.lock``, ``.outputs``) and ``_get_rpc_manager().rpcs``: the runner waits
  for the program's pending outputs and RPCs before reading the capture; the SDK only waits inside
  ``pulumi.runtime.test``/``run_in_stack`` and exposes no public way to list what is still pending.
- ``pulumi.runtime.mocks.MockMonitor``: the resource monitor of the mock runtime, the type of ``set_mocks``'s
  ``monitor`` argument, but not exported from ``pulumi.runtime``; the capture subclasses it to record
  registrations. Everything else the runner needs is public (``pulumi.runtime.Settings``, ``configure``,
  ``reset_options``, ``run_in_stack``, ``set_all_config``, ``Mocks``). ``set_mocks`` itself is not used for
  whole programs: it creates the root Stack and finishes it at once (``mocks.py``), which registers empty
  exports and closes ``pulumi.run``.
- ``pulumi_policy.policy._PolicyAnalyzerServicer`` and its methods ``_configure_runtime_settings``,
  ``_get_policy_config``, ``_get_provider_resource``, ``_get_resource_options``: pulumi-policy serves a pack only
  over gRPC from ``PolicyPack.__init__`` (which blocks in ``serve``); the servicer is the analyzer protocol
  without the server, and the methods let the in-process run decode each resource once.
- ``pulumi.runtime.resource.collapse_alias_to_urn``, as ``pulumi.resource`` holds it (``RESOURCE_MODULE``): what
  ``Resource.__init__`` calls for each alias of a resource being constructed; and
  ``pulumi.runtime.resource._get_stack_trace`` (``REGISTRATION_MODULE``, ``get_stack_trace``): what each
  registration calls for its request's stack trace. ``sdk_shortcuts.py`` puts its own in their places for the
  length of an offline run.
- ``pulumi._types`` (``TYPES_MODULE``), whose ``resource_types``, ``output_type_types``, ``input_type_types`` and
  ``unwrap_type`` the SDK looks up at each call, and its ``_py_properties``, ``_globals_for_cls`` and
  ``_types_from_annotations``: ``sdk_shortcuts.py`` answers the first three property by property from the last
  three, and ``unwrap_type`` once per type object.
- ``pulumi.runtime.rpc._special_sig_key`` (``SPECIAL_SIG_KEY``): the key that marks a secret, resource reference,
  asset, archive or output value in a Struct; ``echo.py`` answers a registration without one itself.
- ``pulumi_policy.policy._NotApplicableError``: what a policy raises through ``args.not_applicable``; the run
  reports it the way the servicer does.
"""

from __future__ import annotations

from typing import Any

try:
    import pulumi._types as _types_module
    import pulumi.resource as _resource_module
    import pulumi.runtime.resource as _registration_module
    from pulumi._types import _globals_for_cls, _py_properties, _types_from_annotations
    from pulumi.runtime.mocks import MockMonitor
    from pulumi.runtime.resource import _get_stack_trace as get_stack_trace
    from pulumi.runtime.resource import collapse_alias_to_urn
    from pulumi.runtime.rpc import _special_sig_key as SPECIAL_SIG_KEY
    from pulumi.runtime.settings import SETTINGS, _get_rpc_manager
    from pulumi_policy.policy import _NotApplicableError, _PolicyAnalyzerServicer
except ImportError as error:  # an SDK upgrade removed or renamed one: say which file to mend
    raise ImportError(
        f"{error}; the installed pulumi / pulumi-policy changed a private name the offline engine uses: "
        "see components/gpuready/offline/sdk_private.py"
    ) from error

RESOURCE_MODULE: Any = _resource_module
"""``pulumi.resource``, whose global ``collapse_alias_to_urn`` ``Resource.__init__`` calls."""
TYPES_MODULE: Any = _types_module
"""``pulumi._types``, whose globals ``resource_types``, ``output_type_types``, ``input_type_types`` and
``unwrap_type`` the SDK calls (``runtime/rpc.py`` through the module, ``_types.py`` itself as globals)."""
REGISTRATION_MODULE: Any = _registration_module
"""``pulumi.runtime.resource``, whose globals ``_get_stack_trace`` and ``create_urn`` ``register_resource`` calls."""

SERVICER_METHODS = (
    "_configure_runtime_settings",
    "_get_policy_config",
    "_get_provider_resource",
    "_get_resource_options",
)
"""The private ``_PolicyAnalyzerServicer`` methods ``policy_run.py`` calls."""

__all__ = [
    "REGISTRATION_MODULE",
    "RESOURCE_MODULE",
    "SERVICER_METHODS",
    "SETTINGS",
    "SPECIAL_SIG_KEY",
    "TYPES_MODULE",
    "MockMonitor",
    "_NotApplicableError",
    "_PolicyAnalyzerServicer",
    "_get_rpc_manager",
    "_globals_for_cls",
    "_py_properties",
    "_types_from_annotations",
    "collapse_alias_to_urn",
    "get_stack_trace",
]
