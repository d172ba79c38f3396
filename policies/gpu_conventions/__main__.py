"""Entry point of the ``gpuready-gpu-conventions`` pack: ``pulumi preview --policy-pack policies/gpu_conventions``.

It only builds the ``PolicyPack``, which serves the engine over gRPC and never returns; the rules are in
``policies.gpu_conventions.policies``. The engine runs this file with the pack directory first on
``sys.path``, where ``policies.py`` would shadow the ``policies`` package, so that entry goes. A published copy
imports the package from its virtualenv (the wheel of ``make policy-pack``); inside the repository the
sources win over a possibly older wheel, so the repository root goes first.
"""

import sys
from pathlib import Path

_PACK_DIR = Path(__file__).resolve().parent
_REPOSITORY = _PACK_DIR.parents[1]
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != _PACK_DIR]
if (_REPOSITORY / "components" / "core").is_dir() and (_REPOSITORY / "policies" / "gpu_conventions").is_dir():
    sys.path.insert(0, str(_REPOSITORY))

from pulumi_policy import EnforcementLevel, PolicyPack  # noqa: E402

from policies.gpu_conventions.policies import PACK_DESCRIPTION, PACK_NAME, POLICIES  # noqa: E402

PolicyPack(
    name=PACK_NAME,
    policies=POLICIES,
    enforcement_level=EnforcementLevel.ADVISORY,
    description=PACK_DESCRIPTION,
)
