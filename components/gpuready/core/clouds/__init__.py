"""The cloud seam: one profile per cloud (``profile.CloudProfile``), found through ``registry``. Pure."""
