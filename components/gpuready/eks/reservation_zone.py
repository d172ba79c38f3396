"""At apply time, the subnets of a pool bound to a zonal reservation are checked to be in its zone.

Offline a subnet id says nothing of its zone, so the plan takes ``reservation.zone`` as given; during ``pulumi
preview`` / ``up`` the node group's subnets are looked up (``aws.ec2.get_subnet``) and a subnet in another zone
stops the program before the node group is created, as the issue asks ("a mismatch fails ... at apply time"; EKS
launches a Capacity Block's instances in its zone only, capacity-blocks-mng). The comparison is
``reservation.subnet_zone_problem``'s; a zone the provider does not report (an offline plan) is not judged.
"""

from __future__ import annotations

from collections.abc import Sequence

import pulumi
import pulumi_aws as aws

from gpuready.core.specs import GpuPoolSpec
from gpuready.eks import reservation


def subnets_in_zone(
    spec: GpuPoolSpec, subnet_ids: Sequence[str], parent: pulumi.Resource
) -> pulumi.Output[list[str]] | None:
    """The subnet ids, known only once each is found in the reservation's zone; None when the pool has no zone."""
    zone = spec.reservation.zone if spec.reservation is not None else None
    if zone is None or not subnet_ids:
        return None
    opts = pulumi.InvokeOutputOptions(parent=parent)
    zones = [aws.ec2.get_subnet_output(id=subnet, opts=opts).availability_zone for subnet in subnet_ids]

    def checked(found: list[str | None]) -> list[str]:
        problem = reservation.subnet_zone_problem(spec.name, list(subnet_ids), found, zone)
        if problem:
            raise pulumi.RunError(problem)
        return list(subnet_ids)

    return pulumi.Output.all(*zones).apply(checked)
