"""The ``gpuready:*`` keys of a Pulumi stack: the config model of the stack settings. Pure.

Pulumi's project config schema types only strings, integers, booleans and arrays (pulumi/pulumi
``sdk/go/common/workspace/project.json``: ``simpleConfigType``), and the engine hands a program every
non-string value as text (``pulumi.Config.get``): booleans and integers arrive as ``"true"`` / ``"900"`` and
arrays JSON-encoded. The model decodes them here, once, for every reader of stack config (the stack program
and ``gpuready verify``). The structured settings (``nodePools``, ``gpuStack``, ``binpackScheduler``) are YAML
text, parsed by their own models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator

from gpuready.core.clouds.registry import Cloud
from gpuready.core.config_model import wiring
from gpuready.core.config_model.base import ConfigModel, Words
from gpuready.core.config_model.problems import config_error
from gpuready.errors import kind_of

NS = "gpuready"
SECRET_KEYS = frozenset({"kubeconfig"})
"""Keys whose values hold credentials: never echoed in an error, and refused as plain text when they hold content."""
KUBECONFIG_HINT = (
    f"pass the kubeconfig as a string and set it as a secret: "
    f"pulumi config set --secret {NS}:kubeconfig < kubeconfig.yaml (a string, not a YAML mapping; the command "
    "stores it encrypted as 'secure:')"
)


def _array(value: object) -> object:
    """An array key: a list, or the JSON text the engine passes for one (text that is no JSON stays text, and the
    model refuses it as not a list)."""
    if isinstance(value, str):
        try:
            decoded: object = json.loads(value)
        except ValueError:
            return value
        return decoded
    return value


def _flag(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if value in ("true", "false"):
        return value == "true"
    raise config_error("must be true or false")


def _seconds(value: Any) -> Any:
    number = value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value)
    if number is None or number < 1:
        raise config_error("must be a whole number of seconds, at least 1", "e.g. 900")
    return number


def _secret_text(value: Any) -> Any:
    if not isinstance(value, str):  # never echoed: it holds credentials
        raise config_error(
            f"must be a string; got {kind_of(value)} (its content is not shown)", KUBECONFIG_HINT, hidden=True
        )
    return value


def _strings(value: Any) -> Any:
    """Every item as text, as the engine would pass it."""
    return [str(v) for v in value] if isinstance(value, list) else value


Strings = Annotated[list[str], BeforeValidator(_strings)]


class StackSettingsConfig(ConfigModel):
    """Every ``gpuready:*`` key a stack may set (``Pulumi.yaml`` declares the same keys)."""

    words: ClassVar = {
        "cloud": Words("unknown cloud", f"pulumi config set {NS}:cloud eks|aks|gke"),
        "cloud:missing": Words("is required", f"pulumi config set {NS}:cloud <value>"),
        "clusterName:missing": Words("is required", f"pulumi config set {NS}:clusterName <value>"),
        "nodePools:missing": Words("is required", "a YAML list of pools; see docs/pool-keys.md"),
        "tags:list_type": Words("must be a list of key=value strings"),
    }

    cloud: Cloud
    cluster_name: str
    node_pools: object
    """YAML text (or data): ``pool_config.parse_pools``."""
    gpu_stack: object = None
    """YAML text (or data): ``config_model.gpu_stack_model``."""
    binpack_scheduler: object = None
    """YAML text (or data): ``config_model.scheduler_model``."""
    kueue: object = None
    """YAML text (or data): ``config_model.kueue_model``."""
    conventions: object = None
    """YAML text (or data): ``conventions.parse_conventions``."""
    tags: Strings = []
    eks_node_role_arn: wiring.IamRoleArn = ""
    eks_subnet_ids: Annotated[list[wiring.SubnetId], BeforeValidator(_strings)] = []
    aks_resource_group: wiring.ResourceGroupName = ""
    aks_vnet_subnet_id: wiring.AzureSubnetId = ""
    gke_location: wiring.GceLocation = ""
    gke_node_locations: Strings = []
    gke_service_account: wiring.GcpServiceAccount = ""
    verify: Annotated[bool, BeforeValidator(_flag)] = False
    verify_timeout_seconds: Annotated[int, BeforeValidator(_seconds)] = 900
    verify_smoke: Annotated[bool, BeforeValidator(_flag)] = False
    verify_smoke_image: str = ""
    verify_skip_pools: Strings = []
    karpenter_feature_gates: Strings = []
    """Karpenter feature gates the cluster's controller runs with on (``scale_path.model.KARPENTER_GATES``)."""
    kubeconfig: Annotated[str, BeforeValidator(_secret_text)] = ""
    kube_context: str = ""

    @classmethod
    def given(cls, values: Mapping[str, object]) -> dict[str, object]:
        """``values`` as data: array keys decoded from the engine's JSON text (the one place that decodes them),
        keys left empty (``""``) dropped (Pulumi.yaml declares every key with an empty default)."""
        return {k: _array(v) if k in ARRAY_KEYS else v for k, v in values.items() if v != ""}


ARRAY_KEYS = ("tags", "eksSubnetIds", "gkeNodeLocations", "verifySkipPools", "karpenterFeatureGates")
"""Keys of Pulumi type ``array`` (``Pulumi.yaml``)."""
SETTINGS_KEYS = tuple(field.alias or name for name, field in StackSettingsConfig.model_fields.items())
