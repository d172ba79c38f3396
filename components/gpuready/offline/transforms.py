"""What the offline plan cannot show: resources as Pulumi transforms would change them. Pure.

The SDK's mock monitor does not run transforms (``pulumi/runtime/mocks.py``: "The mock monitor does not run them"),
neither a resource's own (``ResourceOptions(transforms=[...])``, which also reach its children) nor a stack's
(``pulumi.runtime.register_stack_transform``). ``gpuready plan`` therefore shows such resources as the program
gave them, before the transforms, and says so by name; the policy gate judges the same untransformed inputs.
(Old-style ``transformations`` run inside the SDK itself, so the plan shows their result.)
"""

from __future__ import annotations

from gpuready.offline.capture import CapturedRun

NAMED = 10
"""Resources named in one warning; the rest are counted."""


def transform_warnings(run: CapturedRun) -> list[str]:
    """One warning per resource with its own transforms, and one for a stack transform naming what it reaches."""
    warnings = [
        f"{_short(urn)}: registers transforms, which the offline plan does not run: it and its children are shown "
        "(and judged by the policy gate) before them; `pulumi preview` shows them transformed"
        for urn in run.transformed
    ]
    if run.after_stack_transform:
        urns = run.after_stack_transform
        named = ", ".join(_short(u) for u in urns[:NAMED]) + (
            f" and {len(urns) - NAMED} more" if len(urns) > NAMED else ""
        )
        warnings.append(
            f"the program registers a stack transform, which the offline plan does not run: the {len(urns)} "
            f"resource{'s' if len(urns) > 1 else ''} registered after it {'are' if len(urns) > 1 else 'is'} shown "
            f"(and judged) before it: {named}"
        )
    return warnings


def _short(urn: str) -> str:
    parts = urn.split("::")
    if len(parts) < 4:
        return urn
    return f"{parts[2].rsplit('$', 1)[-1]} {'::'.join(parts[3:])!r}"
