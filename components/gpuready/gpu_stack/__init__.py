"""Pulumi components for the GPU software stack (Helm releases): ``GpuOperator``, ``NvidiaDevicePlugin``,
``NvidiaDraDriver`` and ``GpuOperatorDra`` (the operator's experimental GPUCluster stack)."""
