"""A plan imports what its stack uses (issue #32): per example stack, the gpuready modules ``gpuready plan --stack``
imports (one fresh process each, as the CLI runs it) include no other cloud's package and none of the feature
components the stack does not use, and stay under a bound that only goes down.

A cloud's package loads when a plan asks it something (``gpuready.plugins`` registers each lazily); what every plan
still imports of the other clouds is their settings model (``<cloud>/settings_model.py``: the joined config model
checks another cloud's keys a stack sets, in their format), and a Karpenter NodePool, a type EKS and AKS share, is
read by both clouds' provisioners.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLOUDS = ("eks", "aks", "gke")
KINDS = ("gpu_operator", "device_plugin", "dra_driver", "gpu_operator_dra")
"""The release components of the stack kinds that install a chart (``gpuready.gpu_stack.<kind>``)."""
ALWAYS = ("settings_keys",)
"""The modules of another cloud's package a plan imports: its stack keys (see the module's docstring)."""


@dataclass(frozen=True)
class Uses:
    """What an example stack uses, and the most gpuready modules its plan may import."""

    cloud: str
    most: int
    kind: str | None = None
    """Its stack kind's release component (None: gpuStack none)."""
    shares: tuple[str, ...] = ()
    """Other clouds it loads: those that read the Karpenter NodePool too."""
    fabric: bool = False
    kueue: bool = False
    scheduler: bool = False
    cluster: bool = True
    """Whether it makes a Kubernetes provider (a release, an elastic pool, Kueue objects...)."""


STACKS: dict[str, Uses] = {
    "aks-dev": Uses("aks", 258, "device_plugin"),
    "aks-dra-operator": Uses("aks", 258, "gpu_operator_dra"),
    "aks-ib": Uses("aks", 259, "gpu_operator", fabric=True),
    "aks-nap": Uses("aks", 284, "gpu_operator", shares=("eks",)),
    "aks-sku": Uses("aks", 258, "device_plugin"),
    "eks-capacity": Uses("eks", 271, "gpu_operator"),
    "eks-dev": Uses("eks", 277, "gpu_operator", scheduler=True),
    "eks-dra": Uses("eks", 271, "dra_driver"),
    "eks-efa": Uses("eks", 290, "gpu_operator", shares=("aks",), fabric=True),
    "eks-karpenter": Uses("eks", 287, "gpu_operator", shares=("aks",)),
    "gke-compute-class": Uses("gke", 260),
    "gke-dev": Uses("gke", 255, cluster=False),
    "gke-operator": Uses("gke", 263, "gpu_operator"),
    "gke-queued": Uses("gke", 261, kueue=True),
    "gke-tcpxo": Uses("gke", 263, fabric=True),
}
"""Every example stack (``stacks/Pulumi.<name>.yaml``). Before issue #32's lazy registrations a gke-dev plan
imported 302 modules, eks-dev 320, aks-dev 311; the CLI's error report and completion shells, and GKE's
kubeconfig, loaded only when used, took 3-4 more off each."""

_PLAN = """
import contextlib, io, json, sys
from gpuready.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["plan", "--stack", sys.argv[1], "--project-dir", sys.argv[2]])
print(json.dumps([code, sorted(m for m in sys.modules if m == "gpuready" or m.startswith("gpuready."))]))
"""


def forbidden(uses: Uses) -> list[str]:
    """The packages and modules a plan of a stack that ``uses`` these must not import (nor anything under them)."""
    prefixes = [f"gpuready.{c}" for c in CLOUDS if c != uses.cloud and c not in uses.shares]
    prefixes += [f"gpuready.gpu_stack.{kind}" for kind in KINDS if kind != uses.kind]
    if uses.kind is None and not uses.fabric:  # the fabric's cluster objects go with the stack's install
        prefixes += ["gpuready.gpu_stack.install", "gpuready.gpu_stack.release_component"]
    prefixes += [] if uses.fabric else ["gpuready.gpu_stack.fabric"]
    prefixes += [] if uses.kueue else ["gpuready.kueue"]
    prefixes += [] if uses.scheduler else ["gpuready.scheduler"]
    prefixes += [] if uses.cluster else ["gpuready.kube_provider"]
    return [*prefixes, "gpuready.verify_hook", "gpuready.package", "gpuready.plan_diff"]


def _imported(stack: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", _PLAN, stack, str(ROOT)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    code, modules = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0, f"gpuready plan --stack {stack} exited {code}"
    return list(modules)


def test_the_table_lists_every_example_stack() -> None:
    found = sorted(
        p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml")
    )
    assert sorted(STACKS) == found


@pytest.mark.parametrize(("stack", "uses"), STACKS.items(), ids=list(STACKS))
def test_a_plan_imports_only_what_its_stack_uses(stack: str, uses: Uses) -> None:
    modules = _imported(stack)
    banned = forbidden(uses)
    kept = {f"gpuready.{c}" for c in CLOUDS} | {f"gpuready.{c}.{m}" for c in CLOUDS for m in ALWAYS}
    stray = [m for m in modules if m not in kept and any(m == b or m.startswith(b + ".") for b in banned)]
    assert stray == [], f"{stack} imports what it does not use"
    assert f"gpuready.{uses.cloud}.profile" in modules
    assert len(modules) <= uses.most, f"{stack}: {len(modules)} gpuready modules, the bound is {uses.most}"


@pytest.mark.parametrize(
    ("uses", "prefixes"),
    [
        (
            Uses("gke", 0, cluster=False),
            ["gpuready.eks", "gpuready.aks", *(f"gpuready.gpu_stack.{k}" for k in KINDS),
             "gpuready.gpu_stack.install", "gpuready.gpu_stack.release_component", "gpuready.gpu_stack.fabric",
             "gpuready.kueue", "gpuready.scheduler", "gpuready.kube_provider"],
        ),
        (
            Uses("eks", 0, "dra_driver", shares=("aks",), fabric=True, kueue=True, scheduler=True),
            ["gpuready.gke", "gpuready.gpu_stack.gpu_operator", "gpuready.gpu_stack.device_plugin",
             "gpuready.gpu_stack.gpu_operator_dra"],
        ),
    ],
)  # fmt: skip
def test_what_a_stack_does_not_use_is_forbidden(uses: Uses, prefixes: list[str]) -> None:
    assert forbidden(uses) == [*prefixes, "gpuready.verify_hook", "gpuready.package", "gpuready.plan_diff"]


def test_the_pack_declares_its_policies_without_loading_a_cloud() -> None:
    """The pack's ``__main__`` declares every policy to the engine (``gpuready.policy.policies``); a cloud loads only
    when a resource of a type it owns is analyzed."""
    code = (
        "import json, sys; import gpuready.plugins; from gpuready.policy.policies import POLICIES; "
        "from gpuready.core.clouds.registry import REGISTRY; "
        "print(json.dumps([len(POLICIES), REGISTRY.loaded(), sorted(m for m in sys.modules "
        "if m.startswith(tuple(f'gpuready.{c}.' for c in REGISTRY.names())))]))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    count, loaded, cloud_modules = json.loads(done.stdout)
    assert (count, loaded) == (47, [])
    assert cloud_modules == [], "declaring the pack imports a cloud's package"
