"""Record what a Pulumi program registers, through the SDK's mock resource monitor.

The monitor mints engine-style URNs (full parent type chain, root stack left out), keeps each
``RegisterResourceRequest``'s raw input Struct for a policy analyzer, and takes the root stack's
outputs from ``RegisterResourceOutputs``. Thread-safe: the SDK calls it from a thread pool.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import field
from typing import Any

import pulumi
from pulumi.runtime import MockCallArgs, MockResourceArgs, Mocks, rpc

from gpuready.offline.computed_outputs import computed_outputs
from gpuready.offline.echo import plain_decoded, plain_echo
from gpuready.offline.sdk_private import MockMonitor
from gpuready.record import record

STACK_TYPE = "pulumi:pulumi:Stack"
ProtoStruct = Any
"""A ``google.protobuf.ProtoStruct``; the environment has no protobuf type stubs."""


def engine_urn(stack: str, project: str, parent_urn: str, type_: str, name: str) -> str:
    """The URN the engine gives a resource: its parent's whole type chain, then ``$type``.

    The root stack is not part of a child's chain, so a top-level resource's type stands alone.
    """
    parent_chain = parent_urn.split("::")[2] if parent_urn else ""
    chain = f"{parent_chain}${type_}" if parent_chain and parent_chain != STACK_TYPE else type_
    return f"urn:pulumi:{stack}::{project}::{chain}::{name}"


def stack_urn(stack: str, project: str) -> str:
    """The root stack's URN: type ``pulumi:pulumi:Stack``, named ``<project>-<stack>``."""
    return engine_urn(stack, project, "", STACK_TYPE, f"{project}-{stack}")


@record(frozen=True, slots=True)
class RegisteredResource:
    """One ``RegisterResource`` call, as the engine would receive it."""

    urn: str
    type: str
    name: str
    parent: str
    """The parent's URN; the root stack's for top-level resources, ``""`` for none."""
    custom: bool
    """False for component resources."""
    provider: str
    """``<provider URN>::<provider id>``, or ``""`` for the default provider."""
    dependencies: tuple[str, ...]
    property_dependencies: Mapping[str, tuple[str, ...]]
    object: ProtoStruct
    """The raw input Struct, unchanged, for a policy analyzer's ``Analyze`` request."""
    inputs: Mapping[str, Any]
    """The inputs decoded by ``rpc.deserialize_properties``: camelCase keys, numbers as floats,
    secrets as ``{sig: secret, value}`` dicts, unknowns as ``pulumi.output.Unknown``."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The lifecycle options the engine would act on (``resource_options``): only those that are set."""


@record(frozen=True, slots=True)
class CapturedRun:
    """Everything one program run registered, sorted by URN."""

    project: str
    stack: str
    preview: bool
    stack_urn: str
    resources: tuple[RegisteredResource, ...]
    outputs: Mapping[str, Any]
    """The root stack's exports, decoded like ``RegisteredResource.inputs``."""
    keepalive: object = field(default=None, repr=False, compare=False)
    """The run's SDK state (its ``contextvars.Context``). Freeing a large run's object graph costs about as
    much as 15% of the run, so it is released with this object, not before (the CLI exits without it)."""
    component_output_structs: Mapping[str, ProtoStruct] = field(default_factory=dict)
    """URN -> the raw outputs each component registered with ``register_outputs``; see ``component_outputs``."""
    transformed: tuple[str, ...] = ()
    """URNs of resources whose options carry transforms (``ResourceOptions(transforms=...)``), which the mock
    monitor does not run: the plan shows them, and their children, before the transforms."""
    stack_config: Mapping[str, str] = field(default_factory=dict)
    """The stack's config values that are not secret (``run_stack``), e.g. ``gpuready:conventions`` for the gate."""
    after_stack_transform: tuple[str, ...] = ()
    """URNs registered after the program registered a stack transform (``register_stack_transform``), which the
    mock monitor does not run either."""

    def component_outputs(self, urn: str) -> Mapping[str, Any]:
        """The outputs the component ``urn`` registered, decoded like the inputs (decoded on demand)."""
        raw = self.component_output_structs.get(urn)
        if not raw:
            return {}
        plain = plain_decoded(raw)  # no unknown, secret or resource in it: the SDK's decode without its checks
        return plain if plain is not None else rpc.deserialize_properties(raw, keep_unknowns=True)


def resource_options(request: Any) -> dict[str, Any]:
    """The options of a ``RegisterResourceRequest`` that decide what ``pulumi up`` does on change and delete.

    Only options that are set appear, in the engine's spelling. ``deleteBeforeReplace`` appears whenever the
    program decided it (``deleteBeforeReplaceDefined``): an explicit ``false`` overrides a provider that asks to
    delete first (pulumi/pulumi@1b59498 ``pkg/resource/deploy/step_generator.go`` L2040-2046).
    """
    options: dict[str, Any] = {}
    if request.HasField("protect") and request.protect:
        options["protect"] = True
    if request.deleteBeforeReplaceDefined:
        options["deleteBeforeReplace"] = request.deleteBeforeReplace
    for key in ("ignoreChanges", "replaceOnChanges", "additionalSecretOutputs"):
        values = sorted(getattr(request, key))
        if values:
            options[key] = values
    if request.HasField("retainOnDelete") and request.retainOnDelete:
        options["retainOnDelete"] = True
    if request.deletedWith:
        options["deletedWith"] = request.deletedWith
    aliases = sorted([*request.aliasURNs, *(_alias_text(a) for a in request.aliases)])
    if aliases:
        options["aliases"] = aliases
    return options


def _alias_text(alias: Any) -> str:
    """An ``Alias`` message as text: its URN, or its spec's set fields."""
    if alias.urn:
        return str(alias.urn)
    spec = alias.spec
    parts = [f"{key}={getattr(spec, key)}" for key in ("name", "type", "stack", "project") if getattr(spec, key)]
    if spec.parentUrn:
        parts.append(f"parent={spec.parentUrn}")
    if spec.noParent:
        parts.append("noParent")
    return ",".join(parts)


class PlanMocks(Mocks):
    """Mocks that echo inputs as outputs and give every resource the ID ``<name>_id``."""

    def __init__(self) -> None:
        self.last_inputs = threading.local()
        """The inputs the base monitor just decoded on this thread, so the capture need not decode them again."""

    def new_resource(self, args: MockResourceArgs) -> tuple[str | None, dict[Any, Any]]:
        self.last_inputs.value = args.inputs
        # Outputs a provider computes, so a plan shows them (AKS pool name, EKS Auto Scaling group).
        outputs = {**args.inputs, **computed_outputs(args.typ, args.name, args.inputs)}
        return f"{args.name}_id", outputs

    def call(self, args: MockCallArgs) -> tuple[dict[Any, Any], list[tuple[str, str]] | None]:
        # Cluster lookups get clearly fake answers (gpuready.offline.invoke_results); other invokes get {}.
        from gpuready.offline.invoke_results import fake_invoke_result  # noqa: PLC0415 - only stacks that invoke

        return fake_invoke_result(args.token, args.args), []  # a list, not None: MockMonitor.Invoke iterates it


class CaptureMonitor(MockMonitor):
    """A MockMonitor that records every registration and the root stack's outputs."""

    def __init__(self, mocks: Mocks, *, preview: bool = False) -> None:
        super().__init__(mocks)
        self._preview = preview
        self._lock = threading.Lock()
        self._registered: list[RegisteredResource] = []
        self._requested: list[str] = []
        self._stack_urn = ""
        self._stack_outputs: ProtoStruct | None = None
        self._component_outputs: dict[str, ProtoStruct] = {}
        self._transformed: list[str] = []
        self._stack_transform_at: int | None = None
        """How many resources were registered when the first stack transform was."""

    def make_urn(self, parent: str, type_: str, name: str) -> str:
        # The base class keeps only the last parent type and adds the stack's; the engine does neither.
        return engine_urn(pulumi.get_stack(), pulumi.get_project(), parent, type_, name)

    def RegisterResource(self, request: Any) -> Any:  # the gRPC method name
        response = None
        if request.type != STACK_TYPE and isinstance(self.mocks, PlanMocks):
            response = plain_echo(self, request, self.mocks.new_resource)
        if response is None:
            response = super().RegisterResource(request)  # type: ignore[no-untyped-call]
        with self._lock:
            self._requested.append(request.type)
        if request.type == STACK_TYPE:
            with self._lock:
                self._stack_urn = response.urn
            return response
        record = RegisteredResource(
            urn=response.urn,
            type=request.type,
            name=request.name,
            parent=request.parent,
            custom=request.custom,
            provider=request.provider,
            dependencies=tuple(request.dependencies),
            property_dependencies={k: tuple(v.urns) for k, v in request.propertyDependencies.items()},
            object=request.object,
            inputs=self._decoded_inputs(request),
            options=resource_options(request),
        )
        with self._lock:
            self._registered.append(record)
            if len(request.transforms):
                self._transformed.append(record.urn)
        return response

    def RegisterStackTransform(self, request: Any) -> Any:  # the gRPC method name
        with self._lock:
            if self._stack_transform_at is None:
                self._stack_transform_at = len(self._registered)
        return super().RegisterStackTransform(request)  # type: ignore[no-untyped-call]

    def _decoded_inputs(self, request: Any) -> Mapping[str, Any]:
        # The base monitor already decoded the inputs for the mocks; reuse them (half the decoding time
        # of a large plan). It drops unknowns, though, so a preview decodes again and keeps them.
        mocks = self.mocks
        if not self._preview and isinstance(mocks, PlanMocks):
            stashed: Mapping[str, Any] | None = getattr(mocks.last_inputs, "value", None)
            mocks.last_inputs.value = None
            if stashed is not None:
                return stashed
        decoded: Mapping[str, Any] = rpc.deserialize_properties(request.object, keep_unknowns=True)
        return decoded

    def RegisterResourceOutputs(self, request: Any) -> Any:  # the gRPC method name
        with self._lock:
            if request.urn == self._stack_urn:  # components register outputs too; only these are exports
                self._stack_outputs = request.outputs
            else:
                self._component_outputs[request.urn] = request.outputs
        return super().RegisterResourceOutputs(request)  # type: ignore[no-untyped-call]

    def registered(self) -> list[RegisteredResource]:
        """Every resource registered so far (the root stack's excepted), in registration order."""
        with self._lock:
            return list(self._registered)

    def forget_registered(self) -> None:
        """Drop what was recorded so far (a test that runs several programs on one monitor)."""
        with self._lock:
            self._registered.clear()
            self._requested.clear()
            self._component_outputs.clear()
            self._transformed.clear()
            self._stack_transform_at = None

    def requested(self) -> list[str]:
        """The type of every RegisterResource call so far, the root stack's included."""
        with self._lock:
            return list(self._requested)

    def registered_outputs(self) -> dict[str, dict[str, Any]]:
        """Component URN -> the outputs it registered so far, decoded."""
        with self._lock:
            raw = dict(self._component_outputs)
        return {urn: dict(rpc.deserialize_properties(struct, keep_unknowns=True)) for urn, struct in raw.items()}

    def captured(self, *, project: str, stack: str, preview: bool) -> CapturedRun:
        """A snapshot of what was registered so far, sorted by URN."""
        with self._lock:
            resources = tuple(sorted(self._registered, key=lambda r: r.urn))
            raw_outputs, urn = self._stack_outputs, self._stack_urn
            raw_components = dict(self._component_outputs)
            transformed = tuple(sorted(self._transformed))
            start = self._stack_transform_at
            after = tuple(sorted(r.urn for r in self._registered[start:])) if start is not None else ()
        outputs = rpc.deserialize_properties(raw_outputs, keep_unknowns=True) if raw_outputs else {}
        component_outputs = dict(sorted(raw_components.items()))
        return CapturedRun(
            project=project,
            stack=stack,
            preview=preview,
            stack_urn=urn or stack_urn(stack, project),
            resources=resources,
            outputs=outputs,
            component_output_structs=component_outputs,
            transformed=transformed,
            after_stack_transform=after,
        )
