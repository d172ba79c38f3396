"""The GPU software stack on gpuready's pools: which NVIDIA chart, its Helm values, its configs. Pure.

Decisions only (no Pulumi or Kubernetes client imports): ``stack_plan.plan_gpu_stack`` turns a cloud, its
validated pools and a ``GpuStackSpec`` into everything the Helm release and its companion objects need, or
raises one ``SpecError`` listing every contradiction before anything is registered.
"""
