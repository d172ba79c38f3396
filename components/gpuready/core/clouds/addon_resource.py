"""A cloud's managed add-on resource (``AddonResource``), as gpuready reads any program's: the policy pack finds the
health agent's add-on by it, and ``gpuready plan`` shows an add-on's configuration values. Pure."""

from __future__ import annotations

from gpuready.record import record


@record(frozen=True, slots=True)
class AddonResource:
    """The Pulumi resource a cloud installs a managed add-on with, and the inputs gpuready reads of it."""

    type: str
    """Its Pulumi type token."""
    title: str
    """How the plan names one (``EKS add-on``)."""
    name_field: str
    """The input naming the add-on (the agent's add-on is found by it)."""
    version_field: str
    """The input pinning the add-on's version."""
    values_field: str
    """The input carrying its configuration values as JSON text."""
