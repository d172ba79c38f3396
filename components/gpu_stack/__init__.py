"""Pulumi components for the GPU software stack (Helm releases): ``GpuOperator``, ``NvidiaDevicePlugin`` and
``NvidiaDraDriver``."""
