"""The plug-ins gpuready registers: each cloud's profile object, once (kueue's ``RegisterIntegration``).

This module sits above the core and the cloud packages: it imports each cloud's pure profile and hands it to the
core's registry (``gpuready.core.clouds.registry``), which holds no module path and no cloud's name: the clouds gpuready
knows, and the order they are listed in, are ``CLOUD_PROFILES``. Every entry point imports it before it asks
anything of a cloud: the CLI, the stack program, the policy pack, the component package's provider, the
verification hook, the facade (``import gpuready``'s public names), the tools and the tests' conftest. A profile
brings its provisioners (``CloudProfile.provisioners``), so they register with it.

Importing this module loads no Pulumi SDK (the profiles are pure; only adapters import an SDK, late).
"""

from __future__ import annotations

from gpuready.aks.profile import PROFILE as AKS_PROFILE
from gpuready.core.clouds.profile import CloudProfile
from gpuready.core.clouds.registry import register_cloud
from gpuready.eks.profile import PROFILE as EKS_PROFILE
from gpuready.gke.profile import PROFILE as GKE_PROFILE

CLOUD_PROFILES: tuple[CloudProfile, ...] = (EKS_PROFILE, AKS_PROFILE, GKE_PROFILE)
"""Every cloud's profile, in the order clouds are listed to users: the one registration of a cloud."""

for _profile in CLOUD_PROFILES:
    register_cloud(_profile)
