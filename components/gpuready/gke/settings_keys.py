"""The GKE stack keys (``gpuready:gke*``) without pydantic: their formats and ``GkeSettingsValues``, what GKE's code
reads (``GkeSettingsValues.of(settings)``). Pure; ``settings_model.GkeSettingsConfig`` declares the keys.

* Location: a region ``us-central1`` or a zone ``us-central1-a`` (Compute Engine "Regions and zones").
* Service account email: ``<account>@<project-id>.iam.gserviceaccount.com`` (account 6 to 30 of lowercase
  letters, digits and hyphens, starting with a letter: IAM "Create service accounts"; project id 6 to 30 of
  the same, not ending in a hyphen: Resource Manager "Creating and managing projects"), or the Compute Engine
  default ``<project-number>-compute@developer.gserviceaccount.com``, or ``default``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from gpuready.core.config_model.cloud_keys import CloudSettingsValues, Format
from gpuready.core.config_model.forms import named

_GCE_LOCATION = r"^[a-z]+-[a-z]+[0-9]+(?:-[a-z])?\Z"
_GCP_SERVICE_ACCOUNT = (
    r"^(?:[a-z][-a-z0-9]{4,28}[a-z0-9]@[a-z][-a-z0-9]{4,28}[a-z0-9]\.iam\.gserviceaccount\.com"
    r"|[0-9]+-compute@developer\.gserviceaccount\.com|default)\Z"
)

GCE_LOCATION = named(
    Format(
        _GCE_LOCATION,
        "must be a GCE region (us-central1) or zone (us-central1-a)",
        "the cluster's location: gcloud container clusters list --format='value(name,location)'",
    ),
    "GCE_LOCATION",
)
GCP_SERVICE_ACCOUNT = named(
    Format(
        _GCP_SERVICE_ACCOUNT,
        "must be a service account email: <account>@<project-id>.iam.gserviceaccount.com, "
        "<project-number>-compute@developer.gserviceaccount.com, or default",
        "gcloud iam service-accounts list --format='value(email)'",
    ),
    "GCP_SERVICE_ACCOUNT",
)


class GkeSettingsValues(
    CloudSettingsValues, shape="GkeSettingsConfig", table=Path(__file__).with_name("settings_shape.json")
):
    """The keys a stack on GKE is wired with, validated."""

    if TYPE_CHECKING:
        gke_location: str
        gke_node_locations: list[str]
        gke_service_account: str
