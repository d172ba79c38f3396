"""Pulumi components for the GPU software stack: ``GpuOperator`` and ``NvidiaDevicePlugin`` (Helm releases)."""
