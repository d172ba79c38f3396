"""The ``gpuready:*`` keys of a Pulumi stack: the config model of the stack settings. Pure.

Pulumi's project config schema types only strings, integers, booleans and arrays (pulumi/pulumi
``sdk/go/common/workspace/project.json``: ``simpleConfigType``), and the engine hands a program every
non-string value as text (``pulumi.Config.get``): booleans and integers arrive as ``"true"`` / ``"900"`` and
arrays JSON-encoded. The model decodes them here, once, for every reader of stack config (the stack program
and ``gpuready verify``). The structured settings (``nodePools``, ``gpuStack``, ``binpackScheduler``) are YAML
text, parsed by their own models.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal, get_origin

from pydantic import Field, create_model
from pydantic.fields import FieldInfo

from gpuready.core.clouds.registry import Cloud, cloud_names, registered_settings_models
from gpuready.core.config_model.base import ConfigModel, Words, before
from gpuready.core.config_model.cloud_settings import CloudSettingsConfig, Strings
from gpuready.core.config_model.problems import validate
from gpuready.core.config_model.stack_values import (
    CLOUD_KEYS_AFTER,
    KUBECONFIG_HINT,
    NS,
    SECRET_KEYS,
    PulumiType,
    StackValues,
    flag,
    given,
    image,
    seconds,
    secret_text,
)
from gpuready.core.health.smoke_image import DEFAULT_NCCL_IMAGE
from gpuready.errors import RegistrationError

__all__ = [
    "KUBECONFIG_HINT", "NS", "SECRET_KEYS", "PulumiType", "StackSettingsConfig", "pulumi_types",
    "split_settings_model", "stack_config_model",
]  # fmt: skip


class StackSettingsConfig(StackValues, ConfigModel):
    """Every cloud-neutral ``gpuready:*`` key a stack may set; each cloud's own keys are its settings model's
    (``cloud_settings.CloudSettingsConfig``, its profile's ``settings``), joined by ``stack_config_model``."""

    words: ClassVar = {
        "cloud": Words("unknown cloud", f"pulumi config set {NS}:cloud {{clouds}}"),
        "cloud:missing": Words("is required", f"pulumi config set {NS}:cloud <value>"),
        "clusterName:missing": Words("is required", f"pulumi config set {NS}:clusterName <value>"),
        "nodePools:missing": Words("is required", "a YAML list of pools; see docs/pool-keys.md"),
        "tags:list_type": Words("must be a list of key=value strings"),
    }

    cloud: Cloud = Field(description="Target cloud of the stack's existing cluster: {clouds}.")
    """One of the registered clouds: the joined model (``stack_config_model``) makes the field the ``Literal`` of
    their names and writes them into its description and hint."""
    cluster_name: str = Field(description="Name of the existing EKS / AKS / GKE cluster the GPU pools join.")
    node_pools: object = Field(
        description="YAML list of GPU pool specs (name, instanceType, minSize, maxSize, desiredSize, capacity, "
        "image, driver, driverVersion, gpu, sharing, labels, taints); see docs/pool-keys.md."
    )
    """YAML text (or data): ``pool_config.parse_pools``."""
    gpu_stack: object = Field(
        default=None,
        description="What advertises the pools' GPUs: gpu-operator, device-plugin, none (the cloud's own stack: "
        "GKE, Bottlerocket) or external, or a YAML mapping {kind, namespace, releaseName, chartVersion, "
        "repository, timeoutSeconds, nfd, gfd, migReboot}; see docs/gpu-stack.md.",
    )
    """YAML text (or data): ``config_model.gpu_stack_model``."""
    binpack_scheduler: object = Field(
        default=None,
        description="Optional GPU bin-packing scheduler (a second kube-scheduler, profile gpu-binpack): a YAML "
        "mapping {kubeSchedulerVersion | clusterVersion [+ patchVersion], name, namespace, schedulerName, "
        "replicas, imageRepository}; see docs/binpack.md. Empty: none.",
    )
    """YAML text (or data): ``config_model.scheduler_model``."""
    kueue: object = Field(
        default=None,
        description="Optional Kueue objects for the pools, a YAML mapping {flavors: queued | all | none}: a "
        "ResourceFlavor per flex-start and queued pool (their node selector and tolerations) with a "
        "ProvisioningRequestConfig and an AdmissionCheck per queued pool (queued), a ResourceFlavor for every "
        "pool (all), or nothing (none); see docs/capacity.md. Empty: queued.",
    )
    """YAML text (or data): ``config_model.kueue_model``."""
    conventions: object = Field(
        default=None,
        description="Optional GPU node conventions of the team, a YAML mapping {gpuTaint: key=value:Effect | "
        "{key, value, effect}, skypilotLabels: true|false}: the taint and labels gpuready's pools carry and its "
        "GPU stack and workloads tolerate, and what the policy gate of gpuready plan and verify expect "
        '(docs/policies.md, "Conventions"). Empty: nvidia.com/gpu=present:NoSchedule and SkyPilot labels on.',
    )
    """YAML text (or data): ``conventions.parse_conventions``."""
    tags: Strings = Field(
        default=[], description="Tags (AWS, Azure) or resource labels (GCP) for every pool, as key=value strings."
    )
    verify: Annotated[bool, before(flag)] = Field(
        default=False,
        description="Verify every GPU pool during `pulumi up` (a GpuPoolVerification resource per pool that "
        "waits for its nodes to converge and fails the update with the findings table). Off until a GPU stack "
        "serves the pools.",
    )
    verify_timeout_seconds: Annotated[int, before(seconds)] = Field(
        default=900, description="Seconds each pool's verification waits for its nodes to converge."
    )
    verify_smoke: Annotated[bool, before(flag)] = Field(
        default=False,
        description="With verify, also run one short nvidia-smi Job per pool with nodes once they converge "
        "(deleted whatever happens; a failure fails the update).",
    )
    verify_smoke_image: Annotated[str, before(image)] = Field(
        default="", description="Image of the smoke Job (default a pinned CUDA base image)."
    )
    verify_smoke_nccl_image: Annotated[str, before(image)] = Field(
        default="",
        description="Image of a fabric pool's two-node NCCL all-reduce in the smoke run, with torchrun, NCCL and "
        "the fabric's NCCL net plugin (default: the image the pool's cloud names for its fabric, e.g. an AWS Deep "
        f"Learning Container with aws-ofi-nccl on EFA, else {DEFAULT_NCCL_IMAGE}).",
    )
    verify_skip_pools: Strings = Field(default=[], description="Pools whose verification is turned off.")
    karpenter_feature_gates: Strings = Field(
        default=[],
        description="Karpenter feature gates the cluster's Karpenter runs with turned on (its chart's "
        "settings.featureGates), e.g. [NodeOverlay]: gpuready then emits NodeOverlays for GPU resources "
        'Karpenter does not know (docs/scale-path.md, "How a pending GPU pod becomes a node").',
    )
    """Karpenter feature gates the cluster's controller runs with on (``scale_path.model.KARPENTER_GATES``)."""
    # Not a secret key in Pulumi.yaml (``secret: true``), on purpose. The project schema allows it (pulumi/pulumi
    # sdk/go/common/workspace/project.json, configTypeDeclaration.secret), but the engine applies a key's default
    # to the stack and then requires every value of a secret key to be encrypted (sdk/go/common/workspace/
    # config.go, mergeConfig -> validateStackConfigValue: "must be encrypted as it's secret"), so an optional
    # secret key fails every stack that leaves it unset, and one without a default is required. gpuready refuses
    # kubeconfig content that is not a secret itself (``stack_settings._plaintext_secrets``); a path is fine.
    kubeconfig: Annotated[str, before(secret_text)] = Field(
        default="",
        description="Kubeconfig (content or path) for the GPU stack's Kubernetes provider and the verification; "
        "content must be set as a secret (pulumi config set --secret gpuready:kubeconfig < FILE) or it is "
        "refused. Empty: the GPU stack authenticates the way the cloud does (EKS token, AKS user credentials, "
        "GKE gke-gcloud-auth-plugin) and the verification uses KUBECONFIG, then ~/.kube/config.",
    )
    kube_context: str = Field(
        default="", description="Context of gpuready:kubeconfig to use (empty: its current context)."
    )

    @classmethod
    def given(cls, values: Mapping[str, object]) -> dict[str, object]:
        """``values`` as data (``stack_values.given``: array keys decoded, empty keys dropped)."""
        return given(values)


JOINED_DOC = (
    "Every ``gpuready:*`` key a stack may set (``Pulumi.yaml`` declares the same keys): the cloud-neutral ones and "
    "each cloud's own (its settings model, ``components/gpuready/<cloud>/settings_model.py``), which a stack on "
    "another cloud may set too (checked, not used)."
)


@functools.cache
def stack_config_model() -> type[ConfigModel]:
    """Every ``gpuready:*`` key a stack may set: ``StackSettingsConfig``'s and every registered cloud's settings
    model's (in registry order, after ``CLOUD_KEYS_AFTER``), one model, so unknown keys are refused against all of
    them and a key of another cloud is checked in its format as on its own cloud."""
    fields: dict[str, Any] = {}
    words = dict(StackSettingsConfig.words)
    names = cloud_names()
    hint = words["cloud"].hint.format(clouds="|".join(names))
    words["cloud"] = Words(words["cloud"].problem, hint)
    for name, info in StackSettingsConfig.model_fields.items():
        fields[name] = (info.annotation, info)
        if name == "cloud":  # the registered clouds: a Literal of their names, listed in the description
            listed = f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else names[0]
            described = FieldInfo.merge_field_infos(info, description=(info.description or "").format(clouds=listed))
            fields[name] = (Literal[names], described)
        if name == CLOUD_KEYS_AFTER:
            for model in cloud_settings_models():
                words.update(model.words)
                for cloud_name, cloud_info in model.model_fields.items():
                    if cloud_name in fields:
                        raise RegistrationError(f"{model.__name__}.{cloud_name}: a key another model declares too")
                    fields[cloud_name] = (cloud_info.annotation, cloud_info)
    joined: type[ConfigModel] = create_model("StackSettingsConfig", __base__=ConfigModel, __doc__=JOINED_DOC, **fields)
    joined.words = words
    return joined


def split_settings_model(
    values: Mapping[str, object], own: type[CloudSettingsConfig] | None
) -> tuple[StackSettingsConfig, CloudSettingsConfig | None]:
    """``values`` validated once by the joined model, split into the cloud-neutral keys and the stack's cloud's own
    (``own``: its settings model; None when the cloud is unknown); ``ConfigError`` with every problem. Another cloud's
    key is checked in its format, as on its own cloud, and then not used. The pydantic path of
    ``parsers.split_settings``."""
    model = validate(stack_config_model(), values, f"{NS}:")
    core = StackSettingsConfig.model_construct(
        **{name: getattr(model, name) for name in StackSettingsConfig.model_fields}
    )
    found = None if own is None else own.model_construct(**{name: getattr(model, name) for name in own.model_fields})
    return core, found


def cloud_settings_models() -> tuple[type[CloudSettingsConfig], ...]:
    """Each registered cloud's settings model, in registry order."""
    return registered_settings_models()  # no profile loaded (issue #32)


def settings_keys() -> tuple[str, ...]:
    """Every ``gpuready:*`` key a stack may set, in the joined model's order."""
    return tuple(field.alias or name for name, field in stack_config_model().model_fields.items())


def pulumi_types() -> dict[str, PulumiType]:
    """Every ``gpuready:*`` key and its Pulumi type, from its field's annotation: a list is an ``array`` (of
    strings), a bool a ``boolean``, an int an ``integer``, anything else (names, YAML text) a ``string``."""
    return {
        field.alias or name: _pulumi_type(field.annotation) for name, field in stack_config_model().model_fields.items()
    }


def _pulumi_type(annotation: object) -> PulumiType:
    if get_origin(annotation) is list:
        return "array"
    if annotation is bool:
        return "boolean"
    if annotation is int:
        return "integer"
    return "string"


def array_keys() -> tuple[str, ...]:
    """Keys of Pulumi type ``array``, which the engine passes JSON-encoded."""
    return tuple(key for key, kind in pulumi_types().items() if kind == "array")
