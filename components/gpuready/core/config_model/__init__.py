"""The config model: typed, strict pydantic models of the stack config (camelCase keys as users write them),
and one adapter (``problems.validate``) from pydantic's ``ValidationError`` to gpuready's ``Problem`` format.

Models check shape only (unknown keys, types, allowed values, discriminators); domain rules stay pure functions
over the validated specs (``pool_rules``, ``stack_rules``, ``scheduler_rules``, ...), each run once.
"""
