"""A GPU stack with the mistakes gpuready's policy pack catches. Never deploy it.

- EKS GPU node group without the nvidia.com/gpu taint, on the deprecated AL2_x86_64_GPU AMI;
- GPU Operator release in ``default`` with Helm's 300 s timeout, no chart version, and the NFD worker
  restricted under ``nfd.worker`` (the device plugin's key, which the operator chart ignores);
- a Deployment asking for half a GPU, without a toleration for the GPU taint.
"""

import pulumi
import pulumi_aws as aws
import pulumi_kubernetes as k8s

config = pulumi.Config()
cluster_name = config.require("clusterName")

aws.eks.NodeGroup(
    "gpu-nodes",
    cluster_name=cluster_name,
    node_role_arn="arn:aws:iam::123456789012:role/ml-dev-gpu-nodes",
    subnet_ids=["subnet-0a1b2c3d4e5f60718"],
    instance_types=["g5.xlarge"],
    ami_type="AL2_x86_64_GPU",
    scaling_config={"min_size": 0, "max_size": 2, "desired_size": 1},
)

k8s.helm.v3.Release(
    "gpu-operator",
    chart="gpu-operator",
    repository_opts={"repo": "https://helm.ngc.nvidia.com/nvidia"},
    namespace="default",
    timeout=300,
    values={"nfd": {"worker": {"nodeSelector": {"node.kubernetes.io/instance-type": "g5.xlarge"}}}},
)

k8s.apps.v1.Deployment(
    "trainer",
    spec={
        "selector": {"matchLabels": {"app": "trainer"}},
        "template": {
            "metadata": {"labels": {"app": "trainer"}},
            "spec": {
                "containers": [
                    {
                        "name": "trainer",
                        "image": "nvcr.io/nvidia/pytorch:25.01-py3",
                        "resources": {"limits": {"nvidia.com/gpu": "0.5"}},
                    }
                ]
            },
        },
    },
)
