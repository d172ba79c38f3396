"""Build the wheel that makes ``policies/gpu_conventions`` a self-contained, publishable policy pack.

``pulumi policy publish`` uploads the pack directory alone, and the CLI installs the pack's ``requirements.txt``
into the pack's own ``venv`` wherever the pack is enforced. So everything the rules import must come from that
file: this script writes ``gpuready_policy-<version>-py3-none-any.whl`` into the pack's ``wheels/`` directory
(``make policy-pack``), holding the pack's own modules and the pure part of gpuready they import, and nothing
else: no Pulumi cloud SDK, no Kubernetes client, no CLI.

What goes in is decided by following imports, not by a list: the pack's modules, every ``gpuready`` module
they import (at module level or inside functions), and the modules the registries load by name (each cloud's
profile and provisioners, asked from the registries themselves), then theirs. Names of adapters that are only
loaded to build resources (a profile's ``stack_adapter``, a provisioner's ``adapter``) are not followed: the
pack never calls them. Data files beside an included module go with it. The wheel's dependencies are the
project's own ranges (``pyproject.toml``) for the few distributions that code imports.

Usage: ``python tools/policy_pack.py [OUT_DIR]`` (default ``policies/gpu_conventions/wheels``).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import re
import sys
import tomllib
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "policies" / "gpu_conventions"
SRC = ROOT / "components"
"""The source root of the ``gpuready`` package: wheel paths are relative to it."""
POLICY = SRC / "gpuready" / "policy"
DISTRIBUTION = "gpuready_policy"
REQUIRES = ("pulumi-policy", "pulumi", "pydantic", "pyyaml")
"""Distributions the pack's code imports (``pulumi_policy``, ``pydantic``, ``yaml``); pinned as the project pins
them. A test starts the pack in a virtualenv holding only these and the wheel."""
_DATE = (2026, 1, 1, 0, 0, 0)
"""Fixed file times: the same sources give the same wheel bytes."""


def version() -> str:
    return str(_pyproject()["project"]["version"])


def wheel_name() -> str:
    return f"{DISTRIBUTION}-{version()}-py3-none-any.whl"


def requirements() -> list[str]:
    """The wheel's ``Requires-Dist``: the project's own ranges of ``REQUIRES``."""
    pins = {
        re.split(r"[<>=!~ \[;]", spec, maxsplit=1)[0].lower(): spec for spec in _pyproject()["project"]["dependencies"]
    }
    missing = [name for name in REQUIRES if name not in pins]
    if missing:
        raise SystemExit(f"pyproject.toml pins none of {missing}: add them to [project] dependencies")
    return [pins[name] for name in REQUIRES]


def modules() -> list[Path]:
    """Every source file the pack needs, relative to the source root, sorted."""
    seen: set[Path] = set()
    queue = [p for p in POLICY.rglob("*.py") if "__pycache__" not in p.parts]
    queue += [SRC / "gpuready" / "__init__.py"]
    queue += [found for name in registered() if (found := _source(name)) is not None]
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        seen.add(path)
        queue.extend(_package_inits(path))
        queue.extend(found for name in _imported(path) if (found := _source(name)) is not None)
    return sorted(p.relative_to(SRC) for p in seen)


def registered() -> list[str]:
    """The module that registers the clouds' profiles (the pack's entry point imports it), and those of their
    provisioners."""
    import gpuready.plugins  # noqa: PLC0415  # the build's own venv
    from gpuready.core.clouds.registry import cloud_profiles  # noqa: PLC0415

    made = [type(made).__module__ for p in cloud_profiles() for made in p.provisioners.values()]
    return [gpuready.plugins.__name__, *made]


def data_files(sources: Iterable[Path]) -> list[Path]:
    """Non-Python files in the directories of ``sources`` (and their ``data/`` folders), relative to the source root."""
    found: set[Path] = set()
    for folder in {(SRC / s).parent for s in sources}:
        for candidate in [*folder.glob("*"), *folder.glob("data/**/*")]:
            if candidate.is_file() and candidate.suffix not in {".py", ".pyc"} and "__pycache__" not in candidate.parts:
                found.add(candidate.relative_to(SRC))
    return sorted(found)


def build(out_dir: Path) -> Path:
    """Write the wheel into ``out_dir``; return its path."""
    sources = modules()
    files = [*sources, *data_files(sources)]
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / wheel_name()
    dist_info = f"{DISTRIBUTION}-{version()}.dist-info"
    records: list[str] = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as wheel:
        for relative in files:
            records.append(_write(wheel, relative.as_posix(), (SRC / relative).read_bytes()))
        records.append(_write(wheel, f"{dist_info}/METADATA", _metadata().encode()))
        records.append(_write(wheel, f"{dist_info}/WHEEL", _wheel_file().encode()))
        records.append(f"{dist_info}/RECORD,,")
        info = zipfile.ZipInfo(f"{dist_info}/RECORD", _DATE)
        wheel.writestr(info, "\n".join(records) + "\n", zipfile.ZIP_DEFLATED)
    return target


def _write(wheel: zipfile.ZipFile, name: str, data: bytes) -> str:
    wheel.writestr(zipfile.ZipInfo(name, _DATE), data, zipfile.ZIP_DEFLATED)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _metadata() -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {DISTRIBUTION.replace('_', '-')}",
        f"Version: {version()}",
        "Summary: gpuready's GPU conventions policy pack with the pure gpuready core it imports",
        "Requires-Python: " + str(_pyproject()["project"]["requires-python"]),
        *(f"Requires-Dist: {spec}" for spec in requirements()),
    ]
    return "\n".join(lines) + "\n"


def _wheel_file() -> str:
    return "Wheel-Version: 1.0\nGenerator: gpuready tools/policy_pack.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _imported(path: Path) -> list[str]:
    """``gpuready`` modules ``path`` imports anywhere but under ``if TYPE_CHECKING``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) in {"TYPE_CHECKING", "typing.TYPE_CHECKING"}
        for statement in node.body
        for inner in ast.walk(statement)
    }  # imports for type checkers only: never run
    names: list[str] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names += [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return [n for n in names if n.split(".")[0] == "gpuready"]


def _source(module: str) -> Path | None:
    """The file of ``module`` in the repository (a module or a package), or None (e.g. a name, not a module)."""
    base = SRC.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _package_inits(path: Path) -> list[Path]:
    inits = []
    for folder in path.parents:
        if folder == SRC:
            break
        if (folder / "__init__.py").is_file():
            inits.append(folder / "__init__.py")
    return inits


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else PACK / "wheels"
    sys.stdout.write(f"{build(out)}\n")
