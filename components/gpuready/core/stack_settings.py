"""Stack settings: the ``gpuready:*`` config keys of a stack, parsed and validated. Pure.

Pulumi's project config schema types only strings, integers, booleans and arrays (pulumi/pulumi
``sdk/go/common/workspace/project.json``: ``simpleConfigType``), so the structured pool list is the YAML
text of ``gpuready:nodePools`` and every other key is a scalar or a string array (their model:
``config_model.settings_model``, validated without pydantic when valid: ``config_model.stack_values``). A cloud's
own keys are its settings model's (the profile's ``settings``): declared with empty defaults in ``Pulumi.yaml``,
checked in their formats on every stack, required and used on their cloud's.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import InitVar, field
from typing import TYPE_CHECKING

import yaml

from gpuready.core.clouds.registry import Cloud, cloud_names, cloud_profile
from gpuready.core.cluster_quotas import pool_count_problems
from gpuready.core.config_model.cloud_keys import CloudSettingsValues, missing_key
from gpuready.core.config_model.parsers import parse_binpack, parse_gpu_stack, split_settings, stack_kueue
from gpuready.core.config_model.stack_values import KUBECONFIG_HINT, NS, SECRET_KEYS, StackValues, given
from gpuready.core.conventions import DEFAULT as DEFAULT_CONVENTIONS
from gpuready.core.conventions import Conventions, parse_conventions
from gpuready.core.gpu_stack.stack_plan import GpuStackPlan, plan_gpu_stack
from gpuready.core.gpu_stack.stack_spec import GpuStackSpec
from gpuready.core.k8s_syntax import label_value_problem
from gpuready.core.kueue.objects import KueueSpec
from gpuready.core.pool_config import parse_pools, pool_scale_problems
from gpuready.core.scale_path.model import ClusterFacts, karpenter_cluster
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.yaml_limits import YamlLimitError, load_yaml, yaml_problem
from gpuready.errors import ConfigError, Problem, SpecError
from gpuready.record import record

if TYPE_CHECKING:
    from gpuready.core.binpack.scheduler_config import BinPackSchedulerSpec
    from gpuready.core.clouds.profile import CloudProfile

__all__ = ["KUBECONFIG_HINT", "NS", "SECRET_KEYS", "StackSettings", "parse_stack_settings"]

POOLS_HINT = "write a YAML list of pools, one '- name: ...' entry per pool (see docs/pool-keys.md)"


@record(frozen=True, kw_only=True, slots=True)
class StackSettings:
    """Everything a gpuready stack needs, validated."""

    cloud: Cloud
    cluster_name: str
    pools: tuple[GpuPoolSpec, ...]
    profile: CloudProfile = field(init=False, repr=False, compare=False)
    """The stack's cloud's profile, resolved once from ``gpuready:cloud`` (stack-level code reads it, not the name)."""
    resolved_profile: InitVar[CloudProfile | None] = None
    """The profile already resolved (``parse_stack_settings``); None: resolved here from ``cloud`` (settings built
    by hand)."""
    gpu_stack: GpuStackSpec = field(default_factory=lambda: GpuStackSpec(kind="none"))
    """What advertises the pools' GPUs (``gpuready:gpuStack``); checked against every pool."""
    gpu_stack_plan: GpuStackPlan | None = None
    """The GPU stack planned for the pools (``plan_gpu_stack``, once, when the settings are parsed)."""

    @property
    def planned_gpu_stack(self) -> GpuStackPlan:
        """The plan made with the settings; settings built by hand (tests) are planned here."""
        if self.gpu_stack_plan is not None:
            return self.gpu_stack_plan
        return plan_gpu_stack(self.profile, self.pools, self.gpu_stack)

    binpack_scheduler: BinPackSchedulerSpec | None = None
    """The GPU bin-packing scheduler (``gpuready:binpackScheduler``); None deploys none."""
    kueue: KueueSpec = field(default_factory=KueueSpec)
    """Which pools get Kueue objects (``gpuready:kueue``; ``core.kueue.objects``)."""
    conventions: Conventions = DEFAULT_CONVENTIONS
    """The team's GPU taint and labels (``gpuready:conventions``): every pool carries them (``GpuPoolSpec.conventions``:
    its taint, labels, tolerations, node-template tags), and the policy gate, ``check`` and ``verify`` expect them."""
    tags: Mapping[str, str] = field(default_factory=dict)
    cloud_settings: CloudSettingsValues | None = None
    """The stack's cloud's own keys, as its settings model (the profile's ``settings``) validated them; the cloud's
    code reads them with ``<Cloud>SettingsValues.of(settings)``. None only in settings built by hand."""
    cluster: ClusterFacts = field(default_factory=ClusterFacts)
    """What the stack declares of the cluster's autoscaler settings (``gpuready:karpenterFeatureGates``)."""
    verify: bool = False
    """Verify every pool during ``pulumi up`` (``gpuready:verify``)."""
    verify_timeout_seconds: int = 900
    verify_smoke: bool = False
    """Also run each pool's GPU smoke Job once it converged (``gpuready:verifySmoke``)."""
    verify_smoke_image: str = ""
    """The smoke Job's image; "" for the pinned default."""
    verify_smoke_nccl_image: str = ""
    """The two-node NCCL all-reduce's image (``gpuready:verifySmokeNcclImage``); "" for the fabric's default."""
    verify_skip_pools: tuple[str, ...] = ()
    kubeconfig: str = ""
    """Kubeconfig content or path for the verification; empty uses KUBECONFIG / ~/.kube/config."""
    kube_context: str = ""

    def __post_init__(self, resolved_profile: CloudProfile | None) -> None:
        object.__setattr__(self, "profile", resolved_profile or cloud_profile(self.cloud))


def parse_stack_settings(values: Mapping[str, object], secret_keys: Collection[str] | None = None) -> StackSettings:
    """Validate the stack's ``gpuready:*`` values (keys without namespace) into ``StackSettings``.

    Every key is checked against the joined config model (``stack_config_model``: the cloud-neutral keys and every
    cloud's; unknown keys refused, arrays decoded, booleans and numbers as the engine passes them), the stack's
    cloud's required keys asked for, then the pools, the GPU stack (planned here, once) and the
    scheduler; every problem of every part comes in one ``ConfigError``.

    ``secret_keys``: the keys (without namespace) the engine holds as secrets, when known; kubeconfig *content*
    that is not one of them is refused (a path, or nothing, is fine)."""
    problems: list[Problem] = []
    if secret_keys is not None:
        problems.extend(_plaintext_secrets(values, secret_keys))
    values = given(values)
    cloud = next((c for c in cloud_names() if c == values.get("cloud")), None)
    profile = cloud_profile(cloud) if cloud else None  # the one look-up of the stack's cloud by name
    model: StackValues | None = None
    cloud_settings: CloudSettingsValues | None = None
    try:
        model, cloud_settings = split_settings(values, profile)
    except ConfigError as error:
        problems.extend(error.problems)
    if profile is not None:
        required = profile.settings_values.required_keys()
        problems.extend(missing_key(key, profile.name) for key in required if not values.get(key))
    tags = _tags(model.tags if model else [], problems, gcp=profile is not None and profile.tags_are_labels)
    pools: tuple[GpuPoolSpec, ...] = ()
    raw_pools = _yaml_text(values.get("nodePools"), f"{NS}:nodePools", problems, POOLS_HINT)
    if profile is not None and isinstance(raw_pools, list):
        problems.extend(pool_count_problems(profile, len(raw_pools), f"{NS}:nodePools"))
    cluster = karpenter_cluster(model.karpenter_feature_gates if model else [], f"{NS}:karpenterFeatureGates", problems)
    conventions = stack_conventions(values.get("conventions"), problems)  # once: every pool carries them
    if cloud and raw_pools is not None:
        try:
            pools = parse_pools(raw_pools, cloud, f"{NS}:nodePools", None, conventions)
        except ConfigError as error:
            problems.extend(error.problems)
    if profile is not None and cloud_settings is not None and pools:
        problems.extend(profile.stack_settings_problems(cloud_settings, pools, f"{NS}:"))
    gpu_stack = _gpu_stack(values.get("gpuStack"), problems)
    plan = _plan(profile, pools, gpu_stack, problems)
    problems.extend(pool_scale_problems(pools, cluster, f"{NS}:nodePools"))
    binpack = _binpack(values.get("binpackScheduler"), pools, problems)
    kueue = stack_kueue(values.get("kueue"), pools, problems, _yaml_text)
    known = {p.name for p in pools}
    for index, name in enumerate(model.verify_skip_pools if model else ()):
        if pools and name not in known:
            problems.append(
                Problem(f"{NS}:verifySkipPools[{index}]", "names no pool of this stack", name, sorted(known))
            )
    if problems or model is None or gpu_stack is None or plan is None:
        raise ConfigError(problems)
    return StackSettings(
        cloud=model.cloud,
        resolved_profile=profile,
        cluster_name=model.cluster_name,
        pools=pools,
        gpu_stack=gpu_stack,
        gpu_stack_plan=plan,
        binpack_scheduler=binpack,
        kueue=kueue,
        conventions=conventions,
        tags=tags,
        cloud_settings=cloud_settings,
        cluster=cluster,
        verify=model.verify,
        verify_timeout_seconds=model.verify_timeout_seconds,
        verify_smoke=model.verify_smoke,
        verify_smoke_image=model.verify_smoke_image,
        verify_smoke_nccl_image=model.verify_smoke_nccl_image,
        verify_skip_pools=tuple(model.verify_skip_pools),
        kubeconfig=model.kubeconfig,
        kube_context=model.kube_context,
    )


def _plan(
    profile: CloudProfile | None, pools: Sequence[GpuPoolSpec], spec: GpuStackSpec | None, problems: list[Problem]
) -> GpuStackPlan | None:
    """The GPU stack planned for the pools, once (``stack_rules`` runs inside); None after reporting why not."""
    if profile is None or spec is None or not pools:
        return None
    try:
        return plan_gpu_stack(profile, pools, spec)
    except SpecError as error:
        problems.extend(Problem(f"{NS}:{p.path}", p.problem, p.value, p.allowed, p.hint) for p in error.problems)
        return None


def _gpu_stack(raw: object, problems: list[Problem]) -> GpuStackSpec | None:
    """``gpuStack`` is YAML text (a kind, or a mapping); absent means ``none``, which every pool must allow."""
    path = f"{NS}:gpuStack"
    if raw is None:
        return GpuStackSpec(kind="none")
    data = _yaml_text(raw, path, problems, "e.g. {kind: gpu-operator}")
    if data is None:
        return None
    try:
        return parse_gpu_stack(data, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return None


def _binpack(raw: object, pools: Sequence[GpuPoolSpec], problems: list[Problem]) -> BinPackSchedulerSpec | None:
    """``binpackScheduler`` is YAML text (a mapping); absent or empty deploys no scheduler."""
    path = f"{NS}:binpackScheduler"
    data = None if raw is None else _yaml_text(raw, path, problems, "e.g. {kubeSchedulerVersion: v1.33.4}")
    if data is None:
        return None
    # The scheduler's light classes and rules load only for a stack that deploys the scheduler (``parse_binpack``).
    try:
        return parse_binpack(data, pools, path)
    except ConfigError as error:
        problems.extend(error.problems)
        return None


def stack_conventions(raw: object, problems: list[Problem]) -> Conventions:
    """``gpuready:conventions`` (YAML text or data), the defaults when absent; problems reported."""
    path = f"{NS}:conventions"
    data = None if raw is None or raw == "" else _yaml_text(raw, path, problems, "e.g. {gpuTaint: sku=gpu:NoSchedule}")
    try:
        return parse_conventions(data, path)
    except SpecError as error:
        problems.extend(error.problems)
        return DEFAULT_CONVENTIONS


def _yaml_text(raw: object, path: str, problems: list[Problem], hint: str) -> object:
    """The data of a value that is YAML text (or already data); None when absent, or after reporting bad YAML."""
    if not isinstance(raw, str):
        return raw
    try:
        return load_yaml(raw)  # a safe loader (plain data only), with limits
    except YamlLimitError as error:
        problems.append(Problem(path, f"is refused: {error}", None, (), hint))
    except yaml.YAMLError as error:
        problems.append(Problem(path, f"is not valid YAML at {yaml_problem(error)}", raw, (), hint))
    return None


def _plaintext_secrets(values: Mapping[str, object], secret_keys: Collection[str]) -> list[Problem]:
    problems: list[Problem] = []
    for key in sorted(SECRET_KEYS - set(secret_keys)):
        value = values.get(key)
        if isinstance(value, str) and ("\n" in value.strip() or value.lstrip().startswith("{")):
            problems.append(Problem(f"{NS}:{key}", "holds kubeconfig content in plain text (not shown)", None, (),
                                    KUBECONFIG_HINT))  # fmt: skip
    return problems


def _tags(items: Sequence[str], problems: list[Problem], *, gcp: bool) -> dict[str, str]:
    tags: dict[str, str] = {}
    for index, item in enumerate(items):
        key, sep, value = item.partition("=")
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
