"""The version of the plan document ``gpuready plan -o json`` writes, which ``gpuready diff`` reads. Pure.

``docs/plan.schema.json`` describes this version (a test validates every example stack's plan against it). Raise
it when a key changes meaning or shape, so a diff never compares two plans written differently.
"""

PLAN_FORMAT = 1
