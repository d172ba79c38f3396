"""No import cycles in the package (``TYPE_CHECKING`` imports aside): each layer's modules import downwards only."""

from __future__ import annotations

import grimp


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
