"""The form of a GCE zone's name. Pure, and imports nothing of gpuready (outside the cloud registry's cycle)."""

from __future__ import annotations

import re

ZONE = re.compile(r"^[a-z]+-[a-z]+[0-9]+-[a-z]\Z")
"""A GCE zone (``us-central1-a``); a region has no letter suffix (``us-central1``)."""
