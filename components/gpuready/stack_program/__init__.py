"""gpuready's stack program as a library: ``from gpuready.stack_program import run; run()`` is a whole Pulumi
program (stack config -> GPU pools, GPU stack, scheduler, verification, exports)."""

import gpuready.plugins  # noqa: F401 - registers the clouds' profiles (a stack program is an entry point)
from gpuready.stack_program.program import run

__all__ = ["run"]
