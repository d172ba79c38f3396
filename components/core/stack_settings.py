"""Stack settings: the ``gpuready:*`` config keys of a stack, parsed and validated. Pure.

Pulumi's project config schema types only strings, integers, booleans and arrays (pulumi/pulumi
``sdk/go/common/workspace/project.json``: ``simpleConfigType``), so the structured pool list is the YAML
text of ``gpuready:nodePools`` and every other key is a scalar or a string array. Cloud-specific keys are
declared with empty defaults in ``Pulumi.yaml`` and required here when the stack's cloud needs them.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

import yaml

from components.core.binpack.scheduler_config import BinPackSchedulerSpec
from components.core.catalog.instance_types import CLOUDS, Cloud
from components.core.cluster_quotas import pool_count_problems
from components.core.config_model.gpu_stack_model import parse_gpu_stack
from components.core.config_model.scheduler_model import parse_binpack
from components.core.gke_zones import zone_problems
from components.core.gpu_stack.stack_rules import stack_problems
from components.core.gpu_stack.stack_spec import GpuStackSpec
from components.core.k8s_syntax import label_value_problem
from components.core.pool_config import parse_pools
from components.core.specs import GpuPoolSpec
from components.core.yaml_limits import YamlLimitError, load_yaml, yaml_problem
from components.errors import ConfigError, Problem, kind_of

NS = "gpuready"
REQUIRED_BY_CLOUD: Mapping[Cloud, tuple[str, ...]] = {
    "eks": ("eksNodeRoleArn", "eksSubnetIds"),
    "aks": ("aksResourceGroup",),
    "gke": ("gkeLocation",),
}
"""Wiring keys each cloud needs besides ``cloud``, ``clusterName`` and ``nodePools``."""
_TEXT_KEYS = (
    "eksNodeRoleArn", "aksResourceGroup", "aksVnetSubnetId", "gkeLocation", "gkeServiceAccount",
    "kubeconfig", "kubeContext",
)  # fmt: skip
SECRET_KEYS = frozenset({"kubeconfig"})
"""Keys whose values hold credentials: never echoed in an error, and refused as plain text when they hold content."""
KUBECONFIG_HINT = (
    f"pass the kubeconfig as a string and set it as a secret: "
    f"pulumi config set --secret {NS}:kubeconfig < kubeconfig.yaml (a string, not a YAML mapping; the command "
    "stores it encrypted as 'secure:')"
)


@dataclass(frozen=True, kw_only=True, slots=True)
class StackSettings:
    """Everything a gpuready stack needs, validated."""

    cloud: Cloud
    cluster_name: str
    pools: tuple[GpuPoolSpec, ...]
    gpu_stack: GpuStackSpec = field(default_factory=lambda: GpuStackSpec(kind="none"))
    """What advertises the pools' GPUs (``gpuready:gpuStack``); checked against every pool."""
    binpack_scheduler: BinPackSchedulerSpec | None = None
    """The GPU bin-packing scheduler (``gpuready:binpackScheduler``); None deploys none."""
    tags: Mapping[str, str] = field(default_factory=dict)
    eks_node_role_arn: str = ""
    eks_subnet_ids: tuple[str, ...] = ()
    aks_resource_group: str = ""
    aks_vnet_subnet_id: str = ""
    gke_location: str = ""
    gke_node_locations: tuple[str, ...] = ()
    gke_service_account: str = ""
    verify: bool = False
    """Verify every pool during ``pulumi up`` (``gpuready:verify``)."""
    verify_timeout_seconds: int = 900
    verify_skip_pools: tuple[str, ...] = ()
    kubeconfig: str = ""
    """Kubeconfig content or path for the verification; empty uses KUBECONFIG / ~/.kube/config."""
    kube_context: str = ""


def parse_stack_settings(values: Mapping[str, object], secret_keys: Collection[str] | None = None) -> StackSettings:
    """Validate the stack's ``gpuready:*`` values (keys without namespace) into ``StackSettings``.

    ``secret_keys``: the keys (without namespace) the engine holds as secrets, when known; kubeconfig *content*
    that is not one of them is refused (a path, or nothing, is fine)."""
    problems: list[Problem] = []
    if secret_keys is not None:
        problems.extend(_plaintext_secrets(values, secret_keys))
    cloud_text = _text(values, "cloud", problems, required=True)
    cloud = next((c for c in CLOUDS if c == cloud_text), None)
    if cloud is None and cloud_text:
        problems.append(
            Problem(f"{NS}:cloud", "unknown cloud", cloud_text, CLOUDS, f"pulumi config set {NS}:cloud eks|aks|gke")
        )
    cluster_name = _text(values, "clusterName", problems, required=True)
    tags = _tags(values.get("tags"), problems, gcp=cloud == "gke")
    if cloud:
        for key in REQUIRED_BY_CLOUD[cloud]:
            if not values.get(key):
                problems.append(
                    Problem(
                        f"{NS}:{key}",
                        f"is required when {NS}:cloud is {cloud}",
                        None,
                        (),
                        f"pulumi config set {NS}:{key} ...",
                    )
                )
    pools: tuple[GpuPoolSpec, ...] = ()
    raw_pools = _pool_list(values.get("nodePools"), problems)
    if cloud and isinstance(raw_pools, list):
        problems.extend(pool_count_problems(cloud, len(raw_pools), f"{NS}:nodePools"))
    if cloud and raw_pools is not None:
        try:
            pools = parse_pools(raw_pools, cloud, f"{NS}:nodePools")
        except ConfigError as error:
            problems.extend(error.problems)
    if cloud == "gke" and pools:
        location = values.get("gkeLocation")
        where = location if isinstance(location, str) else None
        problems.extend(zone_problems(where, _strings(values, "gkeNodeLocations"), pools, f"{NS}:"))
    gpu_stack = _gpu_stack(values.get("gpuStack"), problems)
    if gpu_stack is not None and pools:
        problems.extend(
            Problem(f"{NS}:{p.path}", p.problem, p.value, p.allowed, p.hint) for p in stack_problems(pools, gpu_stack)
        )
    binpack = _binpack(values.get("binpackScheduler"), pools, problems)
    verify = _flag(values.get("verify", False), "verify", problems)
    timeout = _whole(values.get("verifyTimeoutSeconds", 900), "verifyTimeoutSeconds", problems)
    skip = _strings(values, "verifySkipPools")
    known = {p.name for p in pools}
    for index, name in enumerate(skip):
        if pools and name not in known:
            problems.append(
                Problem(f"{NS}:verifySkipPools[{index}]", "names no pool of this stack", name, sorted(known))
            )
    texts = {key: _text(values, key, problems) for key in _TEXT_KEYS}  # before the check: their problems count
    if problems or cloud is None or gpu_stack is None:
        raise ConfigError(problems)
    return StackSettings(
        cloud=cloud,
        cluster_name=cluster_name,
        pools=pools,
        gpu_stack=gpu_stack,
        binpack_scheduler=binpack,
        tags=tags,
        eks_node_role_arn=texts["eksNodeRoleArn"],
        eks_subnet_ids=_strings(values, "eksSubnetIds"),
        aks_resource_group=texts["aksResourceGroup"],
        aks_vnet_subnet_id=texts["aksVnetSubnetId"],
        gke_location=texts["gkeLocation"],
        gke_node_locations=_strings(values, "gkeNodeLocations"),
        gke_service_account=texts["gkeServiceAccount"],
        verify=verify,
        verify_timeout_seconds=timeout,
        verify_skip_pools=skip,
        kubeconfig=texts["kubeconfig"],
        kube_context=texts["kubeContext"],
    )


def _gpu_stack(raw: object, problems: list[Problem]) -> GpuStackSpec | None:
    """``gpuStack`` is YAML text (a kind, or a mapping); absent means ``none``, which every pool must allow."""
    path = f"{NS}:gpuStack"
    if raw is None or raw == "":
        return GpuStackSpec(kind="none")
    loaded, data = _yaml_text(raw, path, problems, "e.g. {kind: gpu-operator}")
    if not loaded:
        return None
    try:
        return parse_gpu_stack(data, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return None


def _binpack(raw: object, pools: Sequence[GpuPoolSpec], problems: list[Problem]) -> BinPackSchedulerSpec | None:
    """``binpackScheduler`` is YAML text (a mapping); absent or empty deploys no scheduler."""
    path = f"{NS}:binpackScheduler"
    if raw is None or raw == "":
        return None
    loaded, data = _yaml_text(raw, path, problems, "e.g. {kubeSchedulerVersion: v1.33.4}")
    if not loaded:
        return None
    try:
        return parse_binpack(data, pools, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return None


def _yaml_text(raw: object, path: str, problems: list[Problem], hint: str) -> tuple[bool, object]:
    """``(True, data)`` for a value that is YAML text (or already data); ``(False, None)`` after reporting bad YAML."""
    if not isinstance(raw, str):
        return True, raw
    try:
        return True, load_yaml(raw)  # a safe loader (plain data only), with limits
    except YamlLimitError as error:
        problems.append(Problem(path, f"is refused: {error}", None, (), hint))
        return False, None
    except yaml.YAMLError as error:
        problems.append(Problem(path, f"is not valid YAML at {yaml_problem(error)}", raw, (), hint))
        return False, None


def _text(values: Mapping[str, object], key: str, problems: list[Problem], required: bool = False) -> str:
    value = values.get(key, "")
    if not isinstance(value, str) and key in SECRET_KEYS:  # never echoed: it holds credentials
        problems.append(Problem(f"{NS}:{key}", f"must be a string; got {kind_of(value)} (its content is not shown)",
                                None, (), KUBECONFIG_HINT))  # fmt: skip
        return ""
    if not isinstance(value, str):
        problems.append(Problem(f"{NS}:{key}", "must be a string", value))
        return ""
    if required and not value:
        problems.append(Problem(f"{NS}:{key}", "is required", None, (), f"pulumi config set {NS}:{key} <value>"))
    return value


def _plaintext_secrets(values: Mapping[str, object], secret_keys: Collection[str]) -> list[Problem]:
    problems: list[Problem] = []
    for key in sorted(SECRET_KEYS - set(secret_keys)):
        value = values.get(key)
        if isinstance(value, str) and ("\n" in value.strip() or value.lstrip().startswith("{")):
            problems.append(Problem(f"{NS}:{key}", "holds kubeconfig content in plain text (not shown)", None, (),
                                    KUBECONFIG_HINT))  # fmt: skip
    return problems


def _flag(value: object, key: str, problems: list[Problem]) -> bool:
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    problems.append(Problem(f"{NS}:{key}", "must be true or false", value, ("false", "true")))
    return False


def _whole(value: object, key: str, problems: list[Problem]) -> int:
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if number is None or number < 1:
        problems.append(Problem(f"{NS}:{key}", "must be a whole number of seconds, at least 1", value, (), "e.g. 900"))
        return 1
    return number


def _strings(values: Mapping[str, object], key: str) -> tuple[str, ...]:
    value = values.get(key) or ()
    return tuple(str(v) for v in value) if isinstance(value, Sequence) and not isinstance(value, str) else ()


def _tags(raw: object, problems: list[Problem], *, gcp: bool) -> dict[str, str]:
    tags: dict[str, str] = {}
    if raw is None:
        return tags
    if not isinstance(raw, list):
        problems.append(Problem(f"{NS}:tags", "must be a list of key=value strings", raw))
        return tags
    for index, item in enumerate(raw):
        key, sep, value = str(item).partition("=")
        if not sep or not key:
            problems.append(Problem(f"{NS}:tags[{index}]", "must look like key=value", item, (), "team=ml"))
        elif label_value_problem(value) and len(value) > 256:
            problems.append(Problem(f"{NS}:tags[{index}]", "tag values are at most 256 characters", value))
        elif gcp and (problem := _gcp_label_problem(index, key, value)) is not None:
            problems.append(problem)
        else:
            tags[key] = value
    return tags


_GCP_LABEL_KEY = re.compile(r"^[a-z][a-z0-9_-]{0,62}\Z")
_GCP_LABEL_VALUE = re.compile(r"^[a-z0-9_-]{0,63}\Z")


def _gcp_label_problem(index: int, key: str, value: str) -> Problem | None:
    """On GKE, tags become GCE resource labels: lowercase letters, digits, '_' and '-' only."""
    if _GCP_LABEL_KEY.match(key) and _GCP_LABEL_VALUE.match(value):
        return None
    return Problem(
        f"{NS}:tags[{index}]",
        "GCP resource labels allow lowercase letters, digits, '_' and '-' (keys start with a letter)",
        f"{key}={value}",
        (),
        f"e.g. {key.lower().replace(' ', '-')}={value.lower().replace(' ', '-')}",
    )


def _pool_list(raw: object, problems: list[Problem]) -> object:
    path = f"{NS}:nodePools"
    if raw is None or raw == "":
        problems.append(Problem(path, "is required", None, (), "a YAML list of pools; see README 'Pool spec'"))
        return None
    hint = "write a YAML list of pools, one '- name: ...' entry per pool (see README 'Pool spec')"
    return _yaml_text(raw, path, problems, hint)[1]
