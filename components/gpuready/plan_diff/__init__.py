"""``gpuready diff``: two offline plans compared resource by resource, with the GPU capacity a change puts at risk."""
