"""No import cycles in the package (``TYPE_CHECKING`` imports aside): each layer's modules import downwards only."""

from __future__ import annotations

from pathlib import Path

import grimp

import gpuready.core


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("gpuready", exclude_type_checking_imports=True)
    cycles = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported == importer or imported.startswith(importer + "."):
                continue  # a package importing its own submodule
            if graph.chain_exists(importer=imported, imported=importer):
                back = graph.find_shortest_chain(importer=imported, imported=importer) or ()
                cycles.append(f"{importer} -> {' -> '.join(back)}")
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


CLOUD_SIDE = ("gpuready.plugins", "gpuready.eks", "gpuready.aks", "gpuready.gke")
"""The registration module and the cloud packages: above the core, which registers their profiles as objects."""


def test_the_core_reaches_no_cloud_package_and_no_registration() -> None:
    graph = grimp.build_graph("gpuready", exclude_type_checking_imports=True)
    core = sorted(m for m in graph.modules if m == "gpuready.core" or m.startswith("gpuready.core."))
    above = sorted(m for m in graph.modules if m in CLOUD_SIDE or m.startswith(tuple(f"{c}." for c in CLOUD_SIDE)))
    reached = [f"{c} -> {a}" for c in core for a in above if graph.chain_exists(importer=c, imported=a)]
    assert core and above and not reached, "the core reaches above itself:\n" + "\n".join(reached)


def test_the_core_loads_no_module_by_path() -> None:
    """The hidden run-time cycle of issue #25 came from the core importing cloud profiles by module path; the core
    now only holds the objects registered with it (``gpuready.plugins``)."""
    core = Path(gpuready.core.__file__).parent
    by_path = sorted(
        str(path.relative_to(core))
        for path in core.rglob("*.py")
        if "import_module(" in path.read_text(encoding="utf-8") or "__import__(" in path.read_text(encoding="utf-8")
    )
    assert by_path == []
