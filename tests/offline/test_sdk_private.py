"""The private Pulumi SDK names the offline engine relies on still exist with the shapes it calls.

Fails with "pulumi X.Y changed <name>: ... see gpuready/offline/sdk_private.py" when an SDK upgrade breaks one.
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import pytest
from pulumi.runtime import Settings, set_mocks

from gpuready.offline import sdk_private

PULUMI = f"pulumi {version('pulumi')} / pulumi-policy {version('pulumi-policy')}"
IMPORT_FROM = re.compile(r"^\s*from (pulumi[\w.]*) import (\([^)]*\)|[^\n]+)", re.MULTILINE)
HINT = "see components/gpuready/offline/sdk_private.py"


def _params(func: Callable[..., object]) -> list[str]:
    return list(inspect.signature(func).parameters)


def _changed(name: str, detail: str) -> str:
    return f"{PULUMI} changed {name}: {detail}; {HINT}"


# (name, callable under test, the parameter names the engine passes)
SIGNATURES: list[tuple[str, Callable[..., object], list[str]]] = [
    ("pulumi.runtime.settings._get_rpc_manager", sdk_private._get_rpc_manager, []),
    ("pulumi.runtime.mocks.MockMonitor", sdk_private.MockMonitor.__init__, ["self", "mocks"]),
    (
        "pulumi.runtime.resource.collapse_alias_to_urn",
        sdk_private.collapse_alias_to_urn,
        ["alias", "defaultName", "defaultType", "defaultParent"],
    ),
    ("pulumi.runtime.resource._get_stack_trace", sdk_private.get_stack_trace, []),
    ("pulumi._types._py_properties", sdk_private._py_properties, ["cls"]),
    ("pulumi._types._globals_for_cls", sdk_private._globals_for_cls, ["cls"]),
    ("pulumi._types._types_from_annotations", sdk_private._types_from_annotations, ["cls"]),
    (
        "pulumi_policy.policy._PolicyAnalyzerServicer._configure_runtime_settings",
        sdk_private._PolicyAnalyzerServicer._configure_runtime_settings,
        ["self"],
    ),
    (
        "pulumi_policy.policy._PolicyAnalyzerServicer._get_policy_config",
        sdk_private._PolicyAnalyzerServicer._get_policy_config,
        ["self", "name"],
    ),
    (
        "pulumi_policy.policy._PolicyAnalyzerServicer._get_provider_resource",
        sdk_private._PolicyAnalyzerServicer._get_provider_resource,
        ["self", "request"],
    ),
    (
        "pulumi_policy.policy._PolicyAnalyzerServicer._get_resource_options",
        sdk_private._PolicyAnalyzerServicer._get_resource_options,
        ["self", "request"],
    ),
]


@pytest.mark.parametrize(("name", "func", "expected"), SIGNATURES, ids=[s[0] for s in SIGNATURES])
def test_private_sdk_signatures_are_the_ones_the_engine_calls(
    name: str, func: Callable[..., object], expected: list[str]
) -> None:
    params = _params(func)
    assert params[: len(expected)] == expected, _changed(
        name, f"parameters are now {params}, the engine passes {expected}"
    )


def test_every_private_servicer_method_is_checked_and_present() -> None:
    checked = {name.rsplit(".", 1)[1] for name, _, _ in SIGNATURES if "_PolicyAnalyzerServicer." in name}
    assert set(sdk_private.SERVICER_METHODS) == checked
    for method in sdk_private.SERVICER_METHODS:
        assert callable(getattr(sdk_private._PolicyAnalyzerServicer, method, None)), _changed(method, "gone")


def test_private_sdk_state_has_the_attributes_the_runner_reads() -> None:
    for attr in ("lock", "outputs"):
        assert hasattr(sdk_private.SETTINGS, attr), _changed(f"pulumi.runtime.settings.SETTINGS.{attr}", "gone")
    assert hasattr(sdk_private._get_rpc_manager(), "rpcs"), _changed("RPCManager.rpcs", "gone")
    assert issubclass(sdk_private._NotApplicableError, Exception), _changed("_NotApplicableError", "no exception")
    for name in ("resource_types", "input_type_types", "output_type_types", "unwrap_type", "is_input_type"):
        assert callable(getattr(sdk_private.TYPES_MODULE, name, None)), _changed(f"pulumi._types.{name}", "gone")
    assert isinstance(sdk_private.SPECIAL_SIG_KEY, str), _changed("pulumi.runtime.rpc._special_sig_key", "no str")


def test_the_public_settings_take_what_the_runner_passes() -> None:
    # Public (pulumi.runtime.Settings), but the runner depends on its keywords and on their ambient attributes.
    keywords = ("project", "stack", "monitor", "engine", "dry_run", "organization", "root_directory")
    params = _params(Settings.__init__)
    for keyword in keywords:
        assert keyword in params, _changed("pulumi.runtime.Settings", f"no keyword {keyword!r}")
        assert hasattr(sdk_private.SETTINGS, keyword), _changed("pulumi.runtime.settings.SETTINGS", f"no {keyword!r}")


def test_the_mock_monitor_is_the_type_set_mocks_takes() -> None:
    hint = inspect.signature(set_mocks).parameters.get("monitor")
    assert hint is not None, _changed("pulumi.runtime.set_mocks", "no monitor argument")
    assert "MockMonitor" in str(hint.annotation), _changed("pulumi.runtime.set_mocks", f"monitor is {hint.annotation}")


def test_no_module_but_sdk_private_imports_a_private_sdk_name() -> None:
    root = Path(__file__).resolve().parents[2]
    private_modules = {"pulumi.runtime.mocks", "pulumi.runtime.settings", "pulumi_policy.policy"}
    offenders = []
    for path in sorted((root / "components").rglob("*.py")):
        if path.name == "sdk_private.py":
            continue
        # a regex, not ast.parse: CPython 3.11's ast.parse can raise SystemError after the runner tests' recursion
        for module, imported in IMPORT_FROM.findall(path.read_text(encoding="utf-8")):
            names = [n.strip().split(" ")[0] for n in imported.strip("()").replace("\n", " ").split(",") if n.strip()]
            if module in private_modules or any(n.startswith("_") for n in names):
                offenders.append(f"{path.relative_to(root)}: from {module} import {', '.join(names)}")
    assert offenders == [], f"private SDK names belong in components/gpuready/offline/sdk_private.py: {offenders}"


def test_a_private_name_gone_fails_the_import_with_the_file_to_mend() -> None:
    script = (
        "import pulumi.runtime.mocks as m\n"
        "del m.MockMonitor\n"  # what an SDK upgrade that drops the name looks like
        "import gpuready.offline.sdk_private\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode != 0
    assert "cannot import name 'MockMonitor'" in done.stderr
    assert "see components/gpuready/offline/sdk_private.py" in done.stderr
