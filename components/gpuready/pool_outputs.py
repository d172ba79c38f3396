"""What every GPU node pool component publishes for the next layers (GPU stack, verification, workloads).

The three cloud components share this base so their outputs have the same names and meaning; all
values come from pure functions of the validated spec. The values are known at construction, so the
``Output`` attributes are made on first use: a 1,000-pool stack does not pay for outputs nobody reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pulumi
import pulumi_kubernetes

from gpuready.core.capacity.interface import Provisioner
from gpuready.core.clouds.registry import cloud_profile
from gpuready.core.pool_summary import PoolOutputs, pool_outputs
from gpuready.core.scale_path.model import DEFAULT_CLUSTER, ClusterFacts
from gpuready.core.specs import GpuPoolSpec
from gpuready.errors import SpecError

if TYPE_CHECKING:
    from gpuready.core.clouds.stack_wiring import StackWiring


class GpuNodePoolBase(pulumi.ComponentResource):
    """Common outputs of ``EksGpuNodePool``, ``AksGpuNodePool`` and ``GkeGpuNodePool``."""

    spec: GpuPoolSpec
    """The validated pool spec (plain value; the GPU stack builds its Helm values from it)."""
    node_pool_name: pulumi.Output[str]
    """Name of the node group / agent pool / node pool as the cloud reports it."""
    values: PoolOutputs
    """The plain (known at construction) values behind the outputs below, one field per output."""

    def _publish(
        self, spec: GpuPoolSpec, node_pool_name: pulumi.Output[str], driver: str, lifecycle: str,
        cluster: ClusterFacts = DEFAULT_CLUSTER,
    ) -> None:  # fmt: skip
        """Set the outputs from the spec and register them; the last call of every pool component (``cluster``:
        what the stack declares of the cluster's autoscaler, for the ``scales`` output)."""
        self.spec = spec
        self.node_pool_name = node_pool_name
        self.values = pool_outputs(spec, driver, lifecycle, cluster)
        self._outputs: dict[str, pulumi.Output[Any]] = {}
        self.register_outputs({"node_pool_name": node_pool_name, **self.values.as_dict()})
        self._report_offering(spec)

    def _report_offering(self, spec: GpuPoolSpec) -> None:
        """Warn when the stack's region does not offer the pool's instance type (``pulumi preview`` and ``gpuready
        plan`` show it; the plan goes on); say as info what the cloud cannot have checked."""
        profile: StackWiring = spec.profile
        settings = {
            key: pulumi.Config(key.partition(":")[0]).get(key.partition(":")[2]) for key in profile.region_settings
        }
        warning = profile.offering_warning(spec, profile.region(settings))
        if warning:
            pulumi.log.warn(f"pool {spec.name}: {warning}", resource=self)
        elif profile.offerings_unchecked:
            pulumi.log.info(profile.offerings_unchecked, resource=self)

    def _output(self, key: str) -> pulumi.Output[Any]:
        if key not in self._outputs:
            self._outputs[key] = pulumi.Output.from_input(getattr(self.values, key))
        return self._outputs[key]

    @property
    def node_selector(self) -> pulumi.Output[dict[str, str]]:
        """Node selector that picks exactly this pool's nodes."""
        return self._output("node_selector")

    @property
    def node_labels(self) -> pulumi.Output[dict[str, str]]:
        """Every label gpuready sets on the pool's nodes at creation."""
        return self._output("node_labels")

    @property
    def taint(self) -> pulumi.Output[dict[str, str]]:
        """The GPU taint, as it appears on the Kubernetes Node."""
        return self._output("taint")

    @property
    def tolerations(self) -> pulumi.Output[list[dict[str, str]]]:
        """Tolerations a workload needs for every taint of the pool."""
        return self._output("tolerations")

    @property
    def resource_name(self) -> pulumi.Output[str]:
        """The resource most workloads request here, as the pool's advertiser names it (with extended resources
        ``nvidia.com/gpu``, ``nvidia.com/gpu.shared`` or ``nvidia.com/mig-...``)."""
        return self._output("resource_name")

    @property
    def allocatable(self) -> pulumi.Output[dict[str, int]]:
        """Resource -> units each Ready node should advertise (the pool's advertiser's ``allocatable_per_node``)."""
        return self._output("allocatable")

    @property
    def gpus_per_node(self) -> pulumi.Output[int]:
        """Physical GPUs per node."""
        return self._output("gpus_per_node")

    @property
    def accelerator(self) -> pulumi.Output[str]:
        """Canonical accelerator name, e.g. ``a100-80gb``."""
        return self._output("accelerator")

    @property
    def instance_type(self) -> pulumi.Output[str]:
        """Instance type / VM size / machine type of the nodes."""
        return self._output("instance_type")

    @property
    def sharing(self) -> pulumi.Output[str]:
        """How GPUs are shared, e.g. ``time-slicing x4 by NVIDIA device plugin`` or ``none``."""
        return self._output("sharing")

    @property
    def provisioner(self) -> pulumi.Output[str]:
        """How the nodes are made (the provisioner's key)."""
        return self._output("provisioner")

    @property
    def gpu_limit(self) -> pulumi.Output[int]:
        """The GPU limit the provisioner sets; 0 when it sets none (a fixed pool, a GKE ComputeClass)."""
        return self._output("gpu_limit")

    @property
    def driver(self) -> pulumi.Output[str]:
        """Who installs the NVIDIA driver, and how the cloud resource says so."""
        return self._output("driver")


def custom_resources(
    owner: pulumi.Resource,
    name: str,
    objects: Sequence[tuple[str, Mapping[str, Any]]],
    provider: pulumi.ProviderResource,
) -> list[pulumi_kubernetes.apiextensions.CustomResource]:
    """The Kubernetes objects of an elastic pool (``(suffix, object)`` pairs, each built by the provisioner's pure
    core) as custom resources named ``<name>-<suffix>``, children of ``owner`` on the cluster's ``provider``, each
    created after the one before it (a NodePool after the node class it references)."""
    made: list[pulumi_kubernetes.apiextensions.CustomResource] = []
    for suffix, obj in objects:
        opts = pulumi.ResourceOptions(parent=owner, provider=provider, depends_on=made[-1:])
        resource = pulumi_kubernetes.apiextensions.CustomResource(
            f"{name}-{suffix}", api_version=obj["apiVersion"], kind=obj["kind"], metadata=obj["metadata"],
            spec=obj["spec"], opts=opts,
        )  # fmt: skip
        made.append(resource)
    return made


def require_provisioner(component: str, spec: GpuPoolSpec, provisioner: Provisioner) -> None:
    """Refuse, before anything registers, a spec that ``provisioner`` (the one this elastic ``component`` makes)
    does not make: another cloud's, or another provisioner's."""
    if spec.cloud != provisioner.cloud or spec.provisioner != provisioner.key:
        title = cloud_profile(provisioner.cloud).title
        raise SpecError.one(
            "pool.provisioner",
            f"{component} needs a pool on {title} with provisioner: {provisioner.key}",
            spec.provisioner,
            (provisioner.key,),
            f"set provisioner: {provisioner.key} on a {title} pool, or build the pool with its own component",
        )


def require_default_provisioner(component: str, spec: GpuPoolSpec) -> None:
    """Refuse, before anything registers, a spec whose ``provisioner`` makes its nodes some other way than the
    fixed node group / pool this ``component`` creates (its own component builds it)."""
    chosen = spec.resolved.provisioner
    default = next(iter(spec.profile.provisioners))
    if chosen.key != default:
        raise SpecError.one(
            "pool.provisioner",
            f"{component} makes the cloud's fixed node pool, not a {chosen.key} pool",
            chosen.key,
            (default,),
            f"build it with the {chosen.key} pool component (docs/elastic-pools.md), or drop provisioner",
        )
