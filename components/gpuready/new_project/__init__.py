"""``gpuready new``: the files of a Pulumi project of one's own that runs gpuready's stack program."""
