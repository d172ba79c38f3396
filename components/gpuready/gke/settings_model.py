"""The GKE stack keys (``gpuready:gke*``): the cluster's location (which its kubeconfig look-up needs too), the node
pools' zones and their service account, in their documented formats, checked when the stack config is read. Pure;
registered as ``GkeProfile.settings``.

* Location: a region ``us-central1`` or a zone ``us-central1-a`` (Compute Engine "Regions and zones").
* Service account email: ``<account>@<project-id>.iam.gserviceaccount.com`` (account 6 to 30 of lowercase
  letters, digits and hyphens, starting with a letter: IAM "Create service accounts"; project id 6 to 30 of
  the same, not ending in a hyphen: Resource Manager "Creating and managing projects"), or the Compute Engine
  default ``<project-number>-compute@developer.gserviceaccount.com``, or ``default``.
"""

from __future__ import annotations

import re
from typing import Annotated

from pydantic import Field

from gpuready.core.config_model.cloud_settings import TARGET, CloudSettingsConfig, Strings, formatted

_GCE_LOCATION = re.compile(r"^[a-z]+-[a-z]+[0-9]+(?:-[a-z])?\Z")
_GCP_SERVICE_ACCOUNT = re.compile(
    r"^(?:[a-z][-a-z0-9]{4,28}[a-z0-9]@[a-z][-a-z0-9]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com"
    r"|[0-9]+-compute@developer\.gserviceaccount\.com|default)\Z"
)


GceLocation = Annotated[
    str,
    formatted(
        _GCE_LOCATION,
        "must be a GCE region (us-central1) or zone (us-central1-a)",
        "the cluster's location: gcloud container clusters list --format='value(name,location)'",
    ),
]
GcpServiceAccount = Annotated[
    str,
    formatted(
        _GCP_SERVICE_ACCOUNT,
        "must be a service account email: <account>@<project-id>.iam.gserviceaccount.com, "
        "<project-number>-compute@developer.gserviceaccount.com, or default",
        "gcloud iam service-accounts list --format='value(email)'",
    ),
]


class GkeSettingsConfig(CloudSettingsConfig):
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
