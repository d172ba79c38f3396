"""EKS: what differs on Amazon EKS managed node groups, as gpuready's cloud profile. Pure.

Sources: botocore's ``eks/2017-11-01`` service model (``labelKey`` / ``taintKey`` 1-63 characters, non-empty
label values, ``NodegroupUpdateConfig.maxUnavailable`` 1-100, ``CreateNodegroup`` name pattern), pulumi_aws
``eks/node_group.py`` (at most 50 taints), the EKS user guide ``ml-eks-optimized-ami.adoc`` (AL2023 NVIDIA AMIs
ship driver and toolkit, no device plugin), NVIDIA/gpu-operator#686 (no Amazon Linux driver containers), and
Bottlerocket's NVIDIA variants (driver, toolkit and device plugin built in).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.lifecycle_rules import RELEASE_EXAMPLES, RELEASE_VERSION
from gpuready.core.scheduling import (
    GPUREADY_DOMAIN,
    LABEL_DEPLOY_PREFIX,
)
from gpuready.core.specs import GpuPoolSpec
from gpuready.core.taints import Taint
from gpuready.eks import auto_mode, capacity, catalog, karpenter, offline_answers
from gpuready.eks import health_conditions as agent
from gpuready.eks.addon import ADDON_RESOURCE
from gpuready.eks.catalog import EKS_INSTANCE_TYPES
from gpuready.eks.fabric import FABRIC
from gpuready.eks.images import BOTTLEROCKET_DISABLED_OPERANDS, IMAGES
from gpuready.eks.plan import MAX_UNAVAILABLE, OWNED_INPUTS, max_unavailable, to_eks_taint
from gpuready.eks.platform_fits import PLATFORM_FITS
from gpuready.errors import Problem

if TYPE_CHECKING:
    from gpuready.eks.settings_keys import EksSettingsValues
    from gpuready.eks.settings_model import EksSettingsConfig

MAX_KEY = 63
"""EKS API ``labelKey`` / ``taintKey``: 1-63 characters in all, prefix included (botocore eks service model)."""
MAX_TAINTS = 50
"""aws.eks.NodeGroup accepts at most 50 taints (pulumi_aws eks/node_group.py doc)."""


class EksProfile(CloudProfile):
    name = "eks"
    title = "EKS"
    image_facts = IMAGES
    images = tuple(IMAGES)
    # EKS CreateNodegroup: 1-63 characters, letters, digits, '-' and '_', starting alphanumeric.
    name_rule = (
        re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,62}\Z"),
        "1-63 letters, digits, '-' or '_', starting alphanumeric",
    )
    name_max = 63
    # kubelet's NodeRestriction reserves kubernetes.io / k8s.io; EKS reserves its own prefix.
    reserved_label_domains = ("kubernetes.io", "k8s.io", "eks.amazonaws.com", GPUREADY_DOMAIN)
    instance_types = EKS_INSTANCE_TYPES
    fabric = FABRIC
    platform_fits = PLATFORM_FITS
    health_conditions = agent.CONDITIONS
    condition_reasons = agent.GPU_REASONS

    def unlisted_gpu_type(self, name: str) -> bool:
        return catalog.unlisted_gpu_type(name)

    def gpu_family(self, family: str) -> bool:
        return catalog.gpu_family(family)

    matrix_types = ("g6.xlarge", "p4d.24xlarge")
    stack_adapter = "gpuready.eks.stack_adapter"
    offline_answers = offline_answers.ANSWERS
    health_agents = {
        "eks-node-monitoring-agent": "the EKS node monitoring agent add-on (AcceleratedHardwareReady and the node "
        "health conditions EKS auto repair acts on)",
        "platform": "EKS Auto Mode's own node monitoring agent (Auto Mode pools only; other pools report nothing)",
    }
    health_agent_adapter = "gpuready.eks.health_agent:build_health_agent"
    exec_credentials = "gpuready.eks.kube_token:parse_eks_exec"
    addon_resource = ADDON_RESOURCE
    provisioners = {
        "node-group": capacity.PROVISIONER,
        "karpenter": karpenter.PROVISIONER,
        "eks-auto-mode": auto_mode.PROVISIONER,
    }

    @property
    def settings(self) -> type[EksSettingsConfig]:
        from gpuready.eks.settings_model import EksSettingsConfig  # noqa: PLC0415 - pydantic late: not for check, label, verify

        return EksSettingsConfig

    @property
    def settings_values(self) -> type[EksSettingsValues]:
        from gpuready.eks.settings_keys import EksSettingsValues  # noqa: PLC0415 - read only for a stack's settings

        return EksSettingsValues

    example_pool = (
        "# One L4 per node, whole GPUs, scaled from zero on demand, on Bottlerocket's NVIDIA variant (driver and\n"
        "# device plugin built in: no GPU stack to install; gpuStack installs one for AL2023).\n"
        "- name: l4\n  instanceType: g6.xlarge\n  minSize: 0\n  maxSize: 2\n  diskSizeGb: 100\n  image: bottlerocket\n"
    )
    surge_needs_new_node = False
    region_settings = ("aws:region",)
    offerings_package = "gpuready.eks"

    # botocore eks CreateNodegroup ``diskSize``: a BoxedInteger without bounds, "20 GiB for Linux and
    # Bottlerocket" by default; the root volume is EBS, gp2 "1 - 16,384 GiB" (botocore ec2 CreateVolume ``Size``).
    disk_size_gb = (1, 16384, "EBS gp2 volume sizes, botocore ec2 CreateVolume")
    zone_rule = None
    inputs_package = "gpuready.eks"
    owned_inputs = OWNED_INPUTS

    def hatch_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        found = []
        if spec.zones and spec.fabric is None:  # an EFA pool names its one zone (eks.fabric)
            found.append(
                Problem(
                    "zones",
                    "EKS node groups have no zone setting: their nodes go to the zones of their subnets",
                    list(spec.zones),
                    (),
                    "give the pool the subnets of those zones: overrides: {subnetIds: [subnet-...]}",
                )
            )
        overrides = spec.overrides if isinstance(spec.overrides, Mapping) else {}
        if spec.disk_size_gb is not None and "launchTemplate" in overrides:
            found.append(
                Problem(
                    "diskSizeGb",
                    "cannot be combined with a launch template: EKS fails the node group (botocore eks "
                    "CreateNodegroup diskSize)",
                    spec.disk_size_gb,
                    (),
                    "size the root volume in the launch template's block device mappings and remove diskSizeGb",
                )
            )
        return found

    policy_untainted_note = "EKS never taints GPU node groups, so CPU pods fill the GPU nodes"
    policy_driver_hand_over = "use a non-NVIDIA AMI the operator supports (e.g. Ubuntu via a launch template)"
    policy_plugin_fix = (
        "Set devicePlugin.enabled: false for Bottlerocket pools (label them "
        f"{LABEL_DEPLOY_PREFIX}device-plugin=false for the operator)"
    )
    policy_why_unserved = "EKS NVIDIA AMIs ship the driver but no device plugin"

    def encoded_taint(self, taint: Taint) -> object:
        return to_eks_taint(taint)

    def driver_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        problems = []
        image = IMAGES.get(spec.image_family)  # None: an image EKS lacks (the image rule refuses it)
        if spec.driver == "operator" and (image is None or not image.operator_driver):
            problems.append(
                Problem(
                    "driver",
                    "the GPU Operator has no driver containers for Amazon Linux or Bottlerocket",
                    "operator",
                    ("cloud",),
                    "EKS NVIDIA AMIs ship the driver (NVIDIA/gpu-operator#686); keep driver: cloud and run the "
                    "operator with driver.enabled=false",
                )
            )
        return problems + super().driver_problems(spec)

    def label_problems(self, path: str, key: str, value: str) -> list[Problem]:
        problems = []
        if len(key) > MAX_KEY:
            problems.append(Problem(path, f"EKS allows label keys of at most {MAX_KEY} characters", key))
        if value == "":
            problems.append(Problem(path, "EKS requires a non-empty label value", value))
        return problems

    def taint_key_problems(self, path: str, taint: Taint) -> list[Problem]:
        if len(taint.key) > MAX_KEY:
            return [Problem(path, f"EKS allows taint keys of at most {MAX_KEY} characters", taint.key)]
        return []

    def taint_count_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        count = len(spec.taints) + 1
        if count > MAX_TAINTS:
            return [Problem("taints", f"EKS allows at most {MAX_TAINTS} taints per node group", count)]
        return []

    def sharing_blocked(self, spec: GpuPoolSpec) -> Problem | None:
        image = IMAGES.get(spec.image_family)
        if image is None or image.platform_plugin == "nvidia" or spec.sharing is None:
            return None
        return Problem(
            "sharing",
            "Bottlerocket runs its own device plugin, configured by host settings gpuready does not manage yet",
            spec.sharing.mode,
            ("none",),
            "use image: al2023 for time-slicing, MPS or MIG",
        )

    def upgrade_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        policy = spec.upgrade
        problems = []
        if policy.max_surge is not None:
            problems.append(
                Problem(
                    "upgrade.maxSurge",
                    "EKS decides how many nodes a surge update launches",
                    policy.max_surge,
                    (),
                    "use strategy: surge (EKS updateStrategy DEFAULT) or rolling (MINIMAL) without maxSurge",
                )
            )
        if not 1 <= max_unavailable(spec) <= MAX_UNAVAILABLE:
            problems.append(
                Problem("upgrade.maxUnavailable", f"EKS takes 1 to {MAX_UNAVAILABLE}", policy.max_unavailable)
            )
        return problems

    def release_version_problems(self, spec: GpuPoolSpec) -> list[Problem]:
        version = spec.release_version
        if version is None or RELEASE_VERSION.match(version):
            return []
        return [Problem("releaseVersion", "not an EKS AMI release version", version, (), RELEASE_EXAMPLES)]

    def cloud_labels(self, spec: GpuPoolSpec) -> dict[str, str]:
        # Bottlerocket NVIDIA and EKS Auto Mode bring driver, toolkit and device plugin (ownership's docstring).
        image = IMAGES.get(spec.image_family)
        operands = image.built_in_operands if image is not None else ()
        if spec.provisioner == "eks-auto-mode":
            operands = BOTTLEROCKET_DISABLED_OPERANDS
        return {LABEL_DEPLOY_PREFIX + operand: "false" for operand in operands}


PROFILE = EksProfile()
