// gpuready from TypeScript: an EKS GPU pool and the NVIDIA GPU Operator on it.
// `@pulumi/gpuready` is the SDK `pulumi package add ../..` generates from the package schema (schema.json).
import * as pulumi from "@pulumi/pulumi";
import * as k8s from "@pulumi/kubernetes";
import * as gpuready from "@pulumi/gpuready";

const config = new pulumi.Config();

// One entry of gpuready:nodePools: the same keys, checked by the same rules, as in a gpuready stack.
const trainPool: gpuready.types.input.PoolSpecArgs = {
    name: "train",
    instanceType: "p4d.24xlarge",
    minSize: 0,
    maxSize: 4,
    sharing: { mode: "time-slicing", replicas: 4 },
    labels: { team: "ml" },
};

const train = new gpuready.EksGpuNodePool("train", {
    pool: trainPool,
    clusterName: config.require("clusterName"),
    nodeRoleArn: config.require("nodeRoleArn"),
    subnetIds: config.requireObject<string[]>("subnetIds"),
    tags: { team: "ml" },
});

const cluster = new k8s.Provider("cluster", { kubeconfig: config.requireSecret("kubeconfig") });

const operator = new gpuready.GpuOperator(
    "operator",
    { cloud: "eks", pools: [trainPool], namespace: "gpu-operator" },
    { providers: [cluster], dependsOn: [train] },
);

export const nodeSelector = train.nodeSelector;
export const tolerations = train.tolerations;
export const operatorRelease = operator.releaseName;
