"""The gpuready Pulumi program of this repository's stacks: gpuready's stack program, as every project made by
``gpuready new`` runs it."""

from gpuready.stack_program import run

run()
