"""Run the pack's policies on raw resources the way the engine does, for table-driven rule tests.

Props are serialised to a protobuf Struct with ``pulumi.runtime.rpc.serialize_properties`` (what the SDK
sends the engine) and fed to pulumi_policy's servicer through ``gpuready.offline.analyzer``, so rules see
read-only proxies with every number as a float, not the hand-built dicts they were written from.
"""

from __future__ import annotations

import asyncio
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pulumi.runtime import rpc

from gpuready.offline.analyzer import analyze_pack, analyze_run, load_pack
from gpuready.offline.capture import CapturedRun, RegisteredResource, engine_urn, stack_urn
from gpuready.offline.policy_run import Violation
from gpuready.offline.runner import run_program

PROJECT, STACK = "policytest", "dev"
STACK_URN = stack_urn(STACK, PROJECT)
PACK_NAME, POLICIES = load_pack()
POLICY_NAMES = frozenset(p.name for p in POLICIES)


def struct_of(props: Mapping[str, Any]) -> Any:
    """``props`` serialised the way the SDK sends inputs to the engine."""
    return asyncio.run(rpc.serialize_properties(dict(props), {}))


def resource(type_: str, name: str, props: Mapping[str, Any]) -> RegisteredResource:
    """A top-level custom resource with ``props`` as its raw input Struct."""
    return RegisteredResource(
        urn=engine_urn(STACK, PROJECT, STACK_URN, type_, name),
        type=type_,
        name=name,
        parent=STACK_URN,
        custom=True,
        provider="",
        dependencies=(),
        property_dependencies={},
        object=struct_of(props),
        inputs=dict(props),
    )


def run_of(*resources: RegisteredResource, preview: bool = False) -> CapturedRun:
    """A captured run holding ``resources``."""
    return CapturedRun(
        project=PROJECT,
        stack=STACK,
        preview=preview,
        stack_urn=STACK_URN,
        resources=tuple(sorted(resources, key=lambda r: r.urn)),
        outputs={},
    )


def evaluate(*resources: RegisteredResource, config: Mapping[str, Any] | None = None) -> list[Violation]:
    """Every violation the pack reports on a stack of ``resources``."""
    return analyze_run(run_of(*resources), POLICIES, pack_name=PACK_NAME, config=config)


def messages(
    policy: str, resources: Sequence[tuple[str, Mapping[str, Any]]], config: Mapping[str, Any] | None = None
) -> list[str]:
    """Messages of one policy on a stack of ``(type, props)`` resources (named ``r0``, ``r1``, ...)."""
    assert policy in POLICY_NAMES, policy
    found = evaluate(*(resource(t, f"r{i}", p) for i, (t, p) in enumerate(resources)), config=config)
    return [v.message for v in found if v.policy == policy]


def run_source(directory: Path, source: str, *, preview: bool = False) -> CapturedRun:
    """Run a tiny Pulumi program (the body of its ``__main__.py``) under the offline runner."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "Pulumi.yaml").write_text(f"name: {PROJECT}\nruntime: python\n")
    (directory / "__main__.py").write_text(textwrap.dedent(source))
    return run_program(directory, project=PROJECT, stack=STACK, config={}, secret_keys=(), preview=preview)


def pack_violations(directory: Path, source: str, *, preview: bool = False) -> list[Violation]:
    """The pack's violations on a tiny program."""
    return analyze_pack(run_source(directory, source, preview=preview))
