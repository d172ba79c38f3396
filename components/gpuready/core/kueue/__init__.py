"""The queue side of queued capacity (issue #28): the Kueue objects that make gpuready's pools usable by Kueue."""
