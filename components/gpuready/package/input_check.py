"""A component's inputs parsed as ``Construct`` parses them, before anything registers: the pool entry with the
component's cloud, provisioner, Karpenter feature gates and the team's conventions (``parse_pools``), the GPU stack
of a chart component (``parse_gpu_stack``), a stack-wide component's (its ``SettingEntry``'s parser: the
scheduler's ``parse_binpack``, the Kueue objects' ``parse_kueue``). The provider's builders build from
what these return (``gpuready.package.provider``); ``check_inputs`` runs them alone, for programs gpuready cannot run
offline (Pulumi YAML: ``gpuready.package.yaml_program``). Every refusal is a ``SpecError`` with input paths.

Wiring inputs (cluster name, role, subnets) are not parsed here: the components check them while building, which
needs the cloud's SDK.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulumi

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.capacity.registry import component_provisioners
from gpuready.core.component_entry import SettingEntry
from gpuready.core.config_model.parsers import parse_gpu_stack
from gpuready.core.config_model.problems import rebased
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY, Conventions, parse_conventions
from gpuready.core.gpu_stack.kinds import CHART_COMPONENTS
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.pool_config import parse_pools
from gpuready.core.scale_path.model import ClusterFacts, karpenter_cluster
from gpuready.core.setting_components import SETTING_COMPONENTS
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import ConfigError, Problem, SpecError
from gpuready.package.json_types import token

POOL_COMPONENTS: Mapping[str, Provisioner] = {p.component.name: p for p in component_provisioners()}
"""Pool component -> the provisioner registering it (``Provisioner.component``): node pools first, then elastic
pools (issue #14), cloud by cloud. The provisioner gives the component's cloud and the provisioner an elastic pool's
entry may leave out; its entry the module building it (``package_pool``) and whether the wiring must be known values
(the elastic pools' Args take plain values; the Karpenter pool's take outputs)."""
FEATURE_GATES = "karpenterFeatureGates"
"""The input declaring the cluster's Karpenter feature gates (the stack key ``gpuready:karpenterFeatureGates``;
only the Karpenter pool's schema has it): checked as the stack key is, and the pool is judged, and built, for a
cluster with those gates (``ClusterFacts``: with ``NodeOverlay``, a pool whose GPUs Karpenter cannot see gets its
NodeOverlay instead of a refusal)."""
RELEASE_KINDS = {token(entry.name): kind for kind, entry in CHART_COMPONENTS.items()}
"""Chart component token -> the GPU stack kind its inputs are parsed as (``GpuStackKind.component``)."""
SETTING_KINDS: Mapping[str, SettingEntry] = {token(entry.name): entry for entry in SETTING_COMPONENTS}
"""Stack-wide component token -> its registration entry (``core.setting_components``)."""


def plain(value: Any, path: str) -> Any:
    """A config value as the stack program's parser sees it: known, and whole numbers as ``int`` (the wire
    carries every number as a double, ``google.protobuf.Struct``)."""
    if isinstance(value, pulumi.Output):
        raise ConfigError.one(path, "must be known when the program runs, not another resource's output")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, Mapping):
        return {k: plain(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return value


def pools_of(
    raw: Any, cloud: Any, path: str, conventions: Conventions = DEFAULT_CONVENTIONS
) -> tuple[GpuPoolSpec, ...]:
    """The pool specs of ``raw`` (entries of ``gpuready:nodePools``), checked by the stack program's parser."""
    return parse_pools(plain(raw, path), plain(cloud, "cloud"), path, conventions=conventions)


CONVENTION_INPUTS = (GPU_TAINT_PROPERTY, SKYPILOT_PROPERTY)
"""The inputs every component with pools takes for the team's conventions (``gpuready:conventions``' keys)."""


def conventions_of(inputs: Mapping[str, Any]) -> Conventions:
    """The team's conventions from the component's ``gpuTaint`` / ``skypilotLabels`` inputs (absent: gpuready's),
    checked by the stack settings' parser; raises ``SpecError`` naming the input."""
    given = {k: plain(inputs[k], k) for k in CONVENTION_INPUTS if inputs.get(k) is not None}
    try:
        return parse_conventions(given, "conventions")
    except SpecError as error:
        raise SpecError(rebased(error.problems, "conventions.", "")) from None


def fixed_pool(inputs: Mapping[str, Any], cloud: Any) -> GpuPoolSpec:
    """The pool spec of a node pool component's ``pool`` input on ``cloud``."""
    try:
        entry = plain(inputs.get("pool"), "pool")
        (spec,) = parse_pools([entry], cloud, "pool", conventions=conventions_of(inputs))
    except ConfigError as error:
        raise ConfigError(rebased(error.problems, "pool[0]", "pool")) from None
    return spec


def elastic_pool(
    component: str, inputs: Mapping[str, Any], cloud: Any, provisioner: str, *, gated: bool
) -> tuple[GpuPoolSpec, ClusterFacts]:
    """The pool spec of an elastic pool component (the component's provisioner unless the entry names one) and the
    cluster facts of its declared Karpenter feature gates (``gated``: the component's schema takes them)."""
    entry = plain(inputs.get("pool"), "pool")
    if isinstance(entry, Mapping):
        entry = {"provisioner": provisioner, **entry}  # the component's own unless the entry names one
    if not gated and inputs.get(FEATURE_GATES) is not None:
        raise ConfigError.one(
            FEATURE_GATES, f"{component} takes no Karpenter feature gates (its autoscaler's are not declared)",
            None, (), "remove it; EksKarpenterGpuPool takes the feature gates of a Karpenter you run",
        )  # fmt: skip
    problems: list[Problem] = []
    cluster = karpenter_cluster(plain(inputs.get(FEATURE_GATES), FEATURE_GATES), FEATURE_GATES, problems)
    if problems:
        raise ConfigError(problems)
    try:
        (spec,) = parse_pools([entry], cloud, "pool", cluster, conventions_of(inputs))
    except ConfigError as error:
        raise ConfigError(rebased(error.problems, "pool[0]", "pool")) from None
    if spec.provisioner != provisioner:
        raise ConfigError.one(
            "pool.provisioner", f"{component} makes {provisioner} pools", spec.provisioner, (provisioner,),
            "remove provisioner, or use the component of that provisioner",
        )  # fmt: skip
    return spec, cluster


AGENT_WIRING = {"clusterName": "cluster_name", "tags": "tags"}
"""A chart component's inputs that wire the health agent's add-on (input -> args field), not GPU stack settings."""


def release_inputs(kind: str, inputs: Mapping[str, Any]) -> tuple[GpuStackSpec, tuple[GpuPoolSpec, ...]]:
    """The GPU stack spec of a chart component (``kind``) and the pools it serves."""
    wiring = ("pools", "cloud", *CONVENTION_INPUTS, *AGENT_WIRING)
    given = {k: plain(v, k) for k, v in inputs.items() if k not in wiring}
    try:
        spec = parse_gpu_stack({**given, "kind": kind}, "gpuStack")
    except ConfigError as error:
        raise ConfigError(rebased(error.problems, "gpuStack.", "")) from None
    return spec, pools_of(inputs.get("pools"), inputs.get("cloud"), "pools", conventions_of(inputs))


def setting_inputs(entry: SettingEntry, inputs: Mapping[str, Any]) -> tuple[Any, tuple[GpuPoolSpec, ...]]:
    """A stack-wide component's spec (its key's parser) and the pools it is checked against (if any; a component
    that needs pools is given its input's absence as none)."""
    assert entry.parse is not None  # a SettingEntry has its parser
    conventions = conventions_of(inputs)
    given_pools = entry.pools_required or inputs.get("pools")
    pools = pools_of(inputs.get("pools"), inputs.get("cloud"), "pools", conventions) if given_pools else ()
    given = {k: plain(v, k) for k, v in inputs.items() if k not in ("pools", "cloud", *CONVENTION_INPUTS)}
    try:
        return entry.parse(given, pools, entry.key), pools
    except ConfigError as error:
        raise ConfigError(rebased(error.problems, f"{entry.key}.", "")) from None


def check_inputs(resource_type: str, inputs: Mapping[str, Any], *, gated: bool = False) -> None:
    """Parse ``inputs`` of component ``resource_type`` as ``Construct`` does, building nothing; raise ``SpecError``
    with every problem (input paths). ``gated``: the component's schema takes ``karpenterFeatureGates``."""
    component = resource_type.rsplit(":", 1)[-1]
    provisioner = POOL_COMPONENTS.get(component)
    if provisioner is not None and not provisioner.elastic:
        fixed_pool(inputs, provisioner.cloud)
    elif provisioner is not None:
        elastic_pool(component, inputs, provisioner.cloud, provisioner.key, gated=gated)
    elif resource_type in RELEASE_KINDS:
        release_inputs(RELEASE_KINDS[resource_type], inputs)
    elif resource_type in SETTING_KINDS:
        setting_inputs(SETTING_KINDS[resource_type], inputs)
