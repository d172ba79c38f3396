"""Rendering a planned Helm release with real Helm (``tests/helm_render.py``): time per release, by stack kind.

For every release the rendering tests check (the example stacks' and the table-driven plans of
``tests/gpu_stack/stack_scenarios.py``), in one process after a warm-up render of each chart: loading the
archive afresh (``Chart.load_archive``, as each render must: ``render`` drops disabled subcharts from the loaded
chart), rendering, and parsing the manifests; then the same with the checks of ``tests/gpu_stack/rendered_checks``
(CRD and strict Kubernetes schemas, placement, tolerations, config maps). Target (issue #15): about 0.1 s per
release. Run: ``.venv/bin/python bench/helm_render.py`` (about 20 s; ``--rounds``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_SECONDS = 0.1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.gpu_stack import rendered_checks as checks  # noqa: PLC0415
    from tests.gpu_stack.test_rendered_releases import CASES  # noqa: PLC0415

    for case in CASES:  # warm-up: archive bytes, YAML loader, schema validators
        case.rendered()
    render: dict[str, list[float]] = {}
    checked: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for case in CASES:
            release = case.plan.release
            assert release is not None
            start = time.perf_counter()
            rendered = case.rendered()
            middle = time.perf_counter()
            checks.nfd_problems(rendered, case.plan, case.pools)
            checks.toleration_problems(rendered, case.plan, case.pools)
            checks.crd_validation_problems(rendered, release.chart.name, release.chart.version)
            checks.config_map_problems(rendered, case.plan, case.pools)
            checks.core_schema_problems(rendered, checks.kube_version_of(case.plan))
            checks.dra_placement_problems(rendered, case.plan, case.pools)
            end = time.perf_counter()
            render.setdefault(release.chart.kind, []).append(middle - start)
            checked.setdefault(release.chart.kind, []).append(end - start)
    print(f"{len(CASES)} releases x {args.rounds} rounds (median / max seconds per release)")
    print(f"{'stack kind':<22} {'render':>16} {'render + checks':>18}")
    for chart in sorted(render):
        r, c = render[chart], checked[chart]
        print(f"{chart:<22} {statistics.median(r):>7.3f} / {max(r):.3f} {statistics.median(c):>9.3f} / {max(c):.3f}")
    worst = max(statistics.median(c) for c in checked.values())
    print(f"target: about {TARGET_SECONDS} s per release; worst median with checks {worst:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
