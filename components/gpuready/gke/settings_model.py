"""The GKE stack keys (``gpuready:gke*``): the cluster's location (which its kubeconfig look-up needs too), the node
pools' zones and their service account, in their documented formats (``settings_keys``), checked when the stack
config is read. Pure; registered as ``GkeProfile.settings``.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from gpuready.core.config_model.cloud_settings import TARGET, CloudSettingsConfig, Strings, formatted
from gpuready.gke.settings_keys import GCE_LOCATION, GCP_SERVICE_ACCOUNT, GkeSettingsValues

__all__ = ["GkeSettingsConfig", "GkeSettingsValues"]

GceLocation = Annotated[str, formatted(GCE_LOCATION)]
GcpServiceAccount = Annotated[str, formatted(GCP_SERVICE_ACCOUNT)]


class GkeSettingsConfig(GkeSettingsValues, CloudSettingsConfig):
    """The keys a stack on GKE is wired with (checked against the pools by ``GkeProfile.stack_settings_problems``)."""

    gke_location: Annotated[GceLocation, TARGET] = Field(
        default="", description="GKE: region or zone of the cluster (required when cloud is gke)."
    )
    gke_node_locations: Strings = Field(
        default=[], description="GKE: optional zones for the GPU node pools (default: the cluster's)."
    )
    gke_service_account: GcpServiceAccount = Field(
        default="", description="GKE: optional service account e-mail for the GPU nodes."
    )
