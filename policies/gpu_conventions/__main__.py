"""Entry point of the ``gpuready-gpu-conventions`` pack: ``pulumi preview --policy-pack policies/gpu_conventions``.

It only builds the ``PolicyPack``, which serves the engine over gRPC and never returns; the rules are in
``gpuready.policy`` (``gpuready.policy.policies`` holds the policy objects). A published copy imports ``gpuready``
from its virtualenv (the wheel of ``make policy-pack``); inside the repository the sources win over a possibly
older wheel, so the package's source root (``components/``) goes first on ``sys.path``.
"""

import sys
from pathlib import Path

_SOURCE_ROOT = Path(__file__).resolve().parents[2] / "components"
if (_SOURCE_ROOT / "gpuready" / "policy").is_dir():
    sys.path.insert(0, str(_SOURCE_ROOT))

from pulumi_policy import EnforcementLevel, PolicyPack  # noqa: E402

import gpuready.plugins  # noqa: E402, F401 - registers the clouds' profiles the rules ask for
from gpuready.policy.policies import PACK_DESCRIPTION, PACK_NAME, POLICIES  # noqa: E402

PolicyPack(
    name=PACK_NAME,
    policies=POLICIES,
    enforcement_level=EnforcementLevel.ADVISORY,
    description=PACK_DESCRIPTION,
)
