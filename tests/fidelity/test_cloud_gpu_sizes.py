"""AKS VM sizes, GKE machine types and GKE accelerator names against the lists their SDKs or docs publish.

* AKS: azure-native's only VM size enum (``compute.VirtualMachineSizeTypes``) says of itself that it "is
  currently deprecated" and lists none of the current GPU sizes, so the catalog follows the documented
  table: MicrosoftDocs/azure-compute-docs ``articles/virtual-machines/sizes/gpu-accelerated/*`` as recorded
  in the shared reference ``clouds.md`` 3.3. Each catalog size is in that table with the same GPU count.
* GKE: pulumi_gcp types ``guest_accelerators[].type`` as a plain string (example ``nvidia-tesla-k80``), so
  accelerator names follow GKE how-to/gpus as recorded in ``clouds.md`` 4.1; machine types with a ``-<N>g``
  suffix carry N GPUs (GCE naming, same section).

The shared reference is read from ``../shared/reference`` beside the work tree; the tests skip without it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pulumi_azure_native import compute

from gpuready.aks.catalog import AKS_VM_SIZES
from gpuready.gke.catalog import ACCELERATORS, GKE_MACHINE_TYPES

CLOUDS_MD = Path(__file__).resolve().parents[2].parent / "shared" / "reference" / "clouds.md"


def _clouds_md() -> str:
    if not CLOUDS_MD.is_file():
        pytest.skip(f"shared reference {CLOUDS_MD} is absent")
    return CLOUDS_MD.read_text(encoding="utf-8")


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = text.find("\n### ", start + len(heading))
    return text[start : following if following != -1 else len(text)]


def documented_aks_sizes(text: str) -> dict[str, int]:
    """``clouds.md`` 3.3 rows as full size name -> GPUs (``Standard_NC24ads_A100_v4 / NC48ads`` expands)."""
    sizes: dict[str, int] = {}
    for row in _section(text, "### 3.3 Common GPU VM sizes").splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].startswith("Standard_"):
            continue
        names = [n.strip() for n in cells[0].split("/")]
        counts = [int(c) for c in re.findall(r"\d+", cells[1])]
        first = names[0]
        stem = first.split("_")[1]
        full = [first] + [f"Standard_{short}" if "_" in short else first.replace(stem, short, 1) for short in names[1:]]
        for index, name in enumerate(full):
            sizes[name] = counts[index] if len(counts) == len(full) else counts[0]
    return sizes


def test_the_sdk_vm_size_enum_is_deprecated_and_lacks_the_gpu_sizes() -> None:
    """Why the AKS catalog cites the docs: if the SDK ever lists these sizes, check against it instead."""
    assert "deprecated" in (compute.VirtualMachineSizeTypes.__doc__ or "")
    sdk = {str(m.value).lower() for m in compute.VirtualMachineSizeTypes}
    assert {name.lower() for name in AKS_VM_SIZES} & sdk == set()


def test_the_documented_table_parses() -> None:
    sizes = documented_aks_sizes(_clouds_md())
    assert sizes["Standard_NC48ads_A100_v4"] == 2
    assert sizes["Standard_NC16as_T4_v3"] == 1
    assert sizes["Standard_NC64as_T4_v3"] == 4


@pytest.mark.parametrize("name", sorted(AKS_VM_SIZES))
def test_every_aks_size_is_documented_with_its_gpu_count(name: str) -> None:
    documented = documented_aks_sizes(_clouds_md())
    assert documented.get(name) == AKS_VM_SIZES[name].gpus


def test_every_gke_accelerator_name_is_documented() -> None:
    section = _section(_clouds_md(), "### 4.1 NodePool")
    listing = section[section.index("**Accelerator type strings**") : section.index("* Machine types:")]
    documented = set(re.findall(r"`(nvidia-[a-z0-9-]+)`", listing))
    ours = set(ACCELERATORS.values())
    assert ours - documented == set()
    assert {"nvidia-rtx-pro-6000", "nvidia-gb200"} <= ours


@pytest.mark.parametrize("name", sorted(n for n in GKE_MACHINE_TYPES if re.search(r"-\d+g$", n)))
def test_gke_machine_type_suffix_is_its_gpu_count(name: str) -> None:
    match = re.search(r"-(\d+)g$", name)
    assert match is not None
    assert GKE_MACHINE_TYPES[name].gpus == int(match[1])


@pytest.mark.parametrize(("name", "gpus"), [("g4-standard-48", 1), ("g4-standard-384", 8)])
def test_gke_g4_counts_are_the_documented_ones(name: str, gpus: int) -> None:
    assert re.search(rf"\b{name} has {gpus}\b", _clouds_md())
    assert GKE_MACHINE_TYPES[name].gpus == gpus
