"""The Kueue objects of a stack's pools as Pulumi resources (a thin adapter over ``gpuready.core.kueue``)."""
