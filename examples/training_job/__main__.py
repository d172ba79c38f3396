"""gpuready's components in a program of your own: pool -> GPU stack -> bin-packing scheduler -> workloads.

- an EKS pool of 8 x A100 nodes, whole GPUs, with EFA (in one zone, on a cluster placement group), plus an L4 pool
  shared four ways by time-slicing;
- the GPU Operator on the AMI's driver (values derived from the pools);
- ``GpuBinPackingScheduler`` with the ``gpu-binpack`` profile scoring the pools' GPU resources;
- a training Job whose 4 workers pack onto as few A100 nodes as possible, and an inference Deployment whose
  replicas each take one time-sliced L4 share on their own node, spread across zones.
"""

import pulumi
import pulumi_kubernetes as k8s

from gpuready import (
    BinPackSchedulerSpec,
    EksGpuNodePool,
    EksGpuNodePoolArgs,
    FabricSpec,
    GpuBinPackingScheduler,
    GpuBinPackingSchedulerArgs,
    GpuOperator,
    GpuOperatorArgs,
    GpuPoolSpec,
    GpuSharing,
    Placement,
    gpu_resources_of,
    gpu_workload,
)

config = pulumi.Config()
cluster_name = config.require("clusterName")
provider = k8s.Provider("cluster", kubeconfig=config.require_secret("kubeconfig"))

a100 = GpuPoolSpec(
    cloud="eks",
    name="a100",
    instance_type="p4d.24xlarge",
    min_size=0,
    max_size=4,
    fabric=FabricSpec(kind="efa"),
    zones=("us-east-1a",),
)
SUBNETS = {"a100": ["subnet-0a1b2c3d4e5f60718"], "l4-shared": ["subnet-0a1b2c3d4e5f60718", "subnet-0f1e2d3c4b5a69788"]}
"""An EFA pool takes the subnet of its one zone (us-east-1a); the L4 pool spreads over two zones."""
l4 = GpuPoolSpec(
    cloud="eks",
    name="l4-shared",
    instance_type="g6.xlarge",
    min_size=0,
    max_size=6,
    sharing=GpuSharing(mode="time-slicing", replicas=4, fail_requests_greater_than_one=True),
)
pools = [
    EksGpuNodePool(
        spec.name,
        EksGpuNodePoolArgs(
            pool=spec,
            cluster_name=cluster_name,
            node_role_arn="arn:aws:iam::123456789012:role/ml-dev-gpu-nodes",
            subnet_ids=SUBNETS[spec.name],
        ),
    )
    for spec in (a100, l4)
]
stack = GpuOperator("gpu-stack", GpuOperatorArgs(pools=pools, timeout_seconds=1200, provider=provider))
binpack = BinPackSchedulerSpec(kube_scheduler_version="v1.33.4", gpu_resources=gpu_resources_of([a100, l4]))
scheduler = GpuBinPackingScheduler(
    "gpu-binpack", GpuBinPackingSchedulerArgs(scheduler=binpack), opts=pulumi.ResourceOptions(provider=provider)
)
after_stack = pulumi.ResourceOptions(provider=provider, depends_on=[stack, scheduler])

train = gpu_workload(a100, 2, placement=Placement(scheduler_name=binpack.scheduler_name, pack_group="train-42"))
k8s.batch.v1.Job(
    "train",
    spec={
        "parallelism": 4,
        "completions": 4,
        "template": {
            "metadata": {"labels": {"app": "train", **train.pod_labels()}},
            "spec": {
                **train.pod_spec(),
                "restartPolicy": "Never",
                "containers": [train.container({"name": "worker", "image": "nvcr.io/nvidia/pytorch:25.08-py3"})],
            },
        },
    },
    opts=after_stack,
)

serve = gpu_workload(l4, 1, placement=Placement(spread_by_host=True, spread_by_zone=True, selector={"app": "serve"}))
k8s.apps.v1.Deployment(
    "serve",
    spec={
        "replicas": 3,
        "selector": {"matchLabels": {"app": "serve"}},
        "template": {
            "metadata": {"labels": {"app": "serve", **serve.pod_labels()}},
            "spec": {
                **serve.pod_spec(),
                "containers": [serve.container({"name": "server", "image": "nvcr.io/nvidia/tritonserver:25.08-py3"})],
            },
        },
    },
    opts=after_stack,
)
