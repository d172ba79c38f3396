"""gpuready's Pulumi policy packs. Each subdirectory is one pack (``PulumiPolicy.yaml`` + ``__main__.py``)."""
