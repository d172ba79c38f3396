"""Where a small plan's cost above its import floor goes: the SDK per registration, gpuready's own modules, and
what the offline run's SDK shortcuts save.

Every figure is executed instructions under ``valgrind --tool=callgrind`` (one run each; the count does not depend
on the machine's load), whole processes, the cyclic GC off, bytecode written beforehand:

1. **The SDK per registration**: a program registering N resources of one type through the offline runner (the
   type's modules and first-of-class work warmed by a run with one), N = 30 and 60; the difference / 30 is what
   one more registration costs, gpuready's monitor included.
2. **Per module imported**: 250 generated modules (a docstring and eight small functions each) against none, and
   the gpuready modules a plan of ``--stack`` imports against the SDK modules it imports alone.
3. **The shortcuts**: ``gpuready plan --stack`` in-process with the offline run's shortcuts
   (``gpuready.offline.sdk_shortcuts``) against without them; ratio of the two in the same run.

Run: ``.venv/bin/python bench/plan_costs.py`` (``--stacks`` for part 3, ``--stack`` for part 2's plan).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from small_plan import ENV, ROOT, instructions

PYTHON = sys.executable
_VALGRIND = shutil.which("valgrind") or ""
RESOURCES = {
    "aws.autoscaling.Tag": (
        "import pulumi_aws as aws\n"
        "def make(i):\n"
        "    aws.autoscaling.Tag(f't{i}', autoscaling_group_name='asg', tag=aws.autoscaling.TagTagArgs(\n"
        "        key=f'k8s.io/cluster-autoscaler/node-template/label/x{i}', value='v', propagate_at_launch=False))\n"
    ),
    "kubernetes CustomResource": (
        "from pulumi_kubernetes.apiextensions import CustomResource\n"
        "def make(i):\n"
        "    CustomResource(f'rf{i}', api_version='kueue.x-k8s.io/v1beta2', kind='ResourceFlavor',\n"
        "        metadata={'name': f'rf{i}'}, spec={'nodeLabels': {'cloud.google.com/gke-nodepool': f'p{i}'}})\n"
    ),
}
RUN = """
import gc, sys
gc.disable()
from pathlib import Path
from gpuready.offline.runner import run_program
for directory in sys.argv[1:]:
    run_program(Path(directory), project="p", stack="s", config={}, secret_keys=[])
"""


def _count(code: str, *args: str) -> int:
    subprocess.run([PYTHON, "-c", code, *args], cwd=ROOT, env=ENV, check=True, capture_output=True)  # bytecode
    return instructions([PYTHON, "-c", code, *args], _VALGRIND)


def per_registration(tmp: Path) -> None:
    print("1. the SDK per registration (offline runner, after a warm-up run of one)")
    for kind, body in RESOURCES.items():
        programs = []
        for count in (1, 30, 60):
            program = tmp / f"{kind.split()[-1]}{count}"
            program.mkdir()
            (program / "__main__.py").write_text(f"{body}for i in range({count}):\n    make(i)\n", encoding="utf-8")
            programs.append(str(program))
        warm, thirty, sixty = programs
        at_30, at_60 = _count(RUN, warm, thirty), _count(RUN, warm, sixty)
        print(f"   {kind:<28} {(at_60 - at_30) / 30 / 1e6:6.2f} M instructions per registration")


def per_module(tmp: Path, stack: str) -> None:
    print("2. per module imported")
    package = tmp / "generated"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    body = '"""' + "A line of a module docstring, about as long as the codebase's. " * 20 + '"""\n'
    body += "".join(f"def f{j}(x: int) -> int:\n    '''doc'''\n    return x + {j}\n\n" for j in range(8))
    for i in range(250):
        (package / f"m{i}.py").write_text(body, encoding="utf-8")
    load = (
        f"import sys\nsys.path.insert(0, {str(tmp)!r})\nimport generated\n"
        "for i in range(int(sys.argv[1])): __import__(f'generated.m{i}')"
    )
    none, many = _count(load, "0"), _count(load, "250")
    print(f"   250 generated modules: {(many - none) / 250 / 1e6:.2f} M instructions per module")
    listed = subprocess.run(
        [PYTHON, "-c", _LIST, stack], cwd=ROOT, env=ENV, check=True, capture_output=True, text=True
    ).stdout.splitlines()[-1]
    sdk, own = json.loads(listed)
    floor = f"import gc, importlib\ngc.disable()\nfor m in {sdk!r}: importlib.import_module(m)\n"
    with_own = floor + f"for m in {own!r}: importlib.import_module(m)\n"
    alone, both = _count(floor), _count(with_own)
    print(
        f"   {len(own)} gpuready modules of a {stack} plan: {(both - alone) / 1e6:.0f} M instructions "
        f"({(both - alone) / len(own) / 1e6:.2f} M per module; {both / alone:.3f} x the SDK modules alone)"
    )


_LIST = """
import contextlib, io, json, sys, types
from gpuready.cli.main import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["plan", "--stack", sys.argv[1], "--project-dir", "."])
loaded = [n for n, m in list(sys.modules.items()) if type(m) is types.ModuleType]
sdk = [n for n in loaded if n.split(".")[0] in ("pulumi", "pulumi_aws", "pulumi_kubernetes", "pulumi_azure_native",
       "pulumi_gcp", "pulumi_policy")]
print(json.dumps([sdk, [n for n in loaded if n.split(".")[0] == "gpuready"]]))
"""

PLAN = textwrap.dedent(
    """
    import contextlib, gc, io, sys
    gc.disable()
    from gpuready.offline import runner
    if sys.argv[2] == "without":
        runner.shortcuts = contextlib.nullcontext
    from gpuready.cli.main import main
    with contextlib.redirect_stdout(io.StringIO()):
        main(["plan", "--stack", sys.argv[1], "--project-dir", "."])
    """
)


def shortcuts(stacks: list[str]) -> None:
    print("3. the offline run's SDK shortcuts (whole plan process, gate included)")
    for stack in stacks:
        without, with_ = _count(PLAN, stack, "without"), _count(PLAN, stack, "with")
        print(
            f"   {stack:<18} without {without / 1e9:.3f} G, with {with_ / 1e9:.3f} G instructions: "
            f"{with_ / without:.3f} x ({(without - with_) / 1e6:.0f} M fewer)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--stack", default="gke-queued", help="the plan whose gpuready modules part 2 counts")
    parser.add_argument("--stacks", nargs="+", default=["aks-dev", "eks-dev", "gke-queued"], help="part 3's stacks")
    args = parser.parse_args(argv)
    if not _VALGRIND:
        parser.error("valgrind is not installed")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    with tempfile.TemporaryDirectory() as tmp:
        per_registration(Path(tmp))
        per_module(Path(tmp), args.stack)
    shortcuts(args.stacks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
