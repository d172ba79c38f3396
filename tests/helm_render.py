"""Render a Helm release gpuready plans through the real chart, offline, and read the objects it produces.

Helm v4 runs in-process (PyPI ``helm-python-sdk``: ``Chart.load_archive(data).render(values, name=...,
namespace=..., is_install=True)``) on the released chart archives gpuready pins, read from the shared reference
snapshot (``../shared/reference/upstream/charts/``, the archive each ``chart_facts`` row cites; bytes read once per
process; a test rendering one is skipped with the reason when the snapshot is absent). ``Chart.render`` drops
disabled subcharts from the loaded chart object for good, so every render loads the archive afresh (about 10 ms; a
render of the operator chart takes about 50 ms).

A chart's own validations (``fail`` in its templates, its values schema) raise ``HelmRenderError`` /
``HelmValuesError`` from ``render_release``: a release that renders passed them.
"""

from __future__ import annotations

import functools
import io
import json
import re
import tarfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema
import kubernetes_validate
import yaml
from helm_python import Chart, _native
from referencing import Registry, Resource

from gpuready.core.gpu_stack.chart_facts import chart_values
from gpuready.core.gpu_stack.stack_plan import HelmRelease
from tests.upstream import upstream_bytes

Obj = dict[str, Any]
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Rendered:
    """The objects one release renders to (hooks included), in template order."""

    release: str
    namespace: str
    objects: tuple[Obj, ...]

    def of_kind(self, kind: str) -> list[Obj]:
        return [o for o in self.objects if o.get("kind") == kind]

    def one(self, kind: str, name_part: str = "") -> Obj:
        """The single object of ``kind`` whose name contains ``name_part``."""
        found = [o for o in self.of_kind(kind) if name_part in o["metadata"]["name"]]
        assert len(found) == 1, f"{kind} *{name_part}*: {[o['metadata']['name'] for o in found]}"
        return found[0]

    def config_maps(self) -> dict[str, Mapping[str, str]]:
        """Name -> data of the config maps the chart itself creates in the release namespace."""
        return {
            o["metadata"]["name"]: o.get("data") or {}
            for o in self.of_kind("ConfigMap")
            if o["metadata"].get("namespace", self.namespace) == self.namespace
        }


def render(
    chart_name: str,
    version: str,
    values: Mapping[str, Any],
    *,
    name: str,
    namespace: str,
    api_versions: Sequence[str] = (),
) -> Rendered:
    """``helm template`` of the pinned chart ``chart_name`` ``version`` with ``values``; ``api_versions`` as
    ``helm template --api-versions`` (the APIs the chart may take the cluster to serve)."""
    chart = Chart.load_archive(archive_bytes(chart_name, version))  # afresh: render mutates the chart
    if api_versions:
        # ``Chart.render`` (helm-python-sdk 0.2.2) has no parameter for them, but the library's render options
        # take ``api_versions`` (Go ``RenderOptions.api_versions``, a list of strings; an unknown option is an
        # error, so a rename fails here rather than being ignored).
        options = {"name": name, "namespace": namespace, "is_install": True, "api_versions": list(api_versions)}
        raw = _native.call_string("helm_render", chart._raw(), json.dumps(dict(values)), json.dumps(options))
        manifests: dict[str, str] = json.loads(raw)
    else:
        manifests = chart.render(dict(values), name=name, namespace=namespace, is_install=True)
    objects: list[Obj] = []
    for path in manifests:
        if not path.endswith((".yaml", ".yml")):
            continue  # NOTES.txt and the like
        objects.extend(d for d in yaml.load_all(manifests[path], Loader=_LOADER) if d)
    return Rendered(name, namespace, tuple(objects))


def render_release(release: HelmRelease, *, version: str | None = None) -> Rendered:
    """Render a planned release; ``version`` renders another pinned version (a plan that overrides the chart
    version renders the pinned archive: the values do not depend on the version)."""
    return render(
        release.chart.name,
        version or release.version,
        release.values,
        name=release.name,
        namespace=release.namespace,
        api_versions=release.chart.cluster_apis,
    )


def archive_bytes(chart_name: str, version: str) -> bytes:
    """The released archive of chart ``chart_name`` ``version`` (the one its ``chart_facts`` row cites); KeyError
    when gpuready pins no such version."""
    return upstream_bytes(f"charts/{chart_values(chart_name, version).citation.archive}")


@functools.cache
def crd_schema(chart_name: str, version: str, kind: str) -> Mapping[str, Any]:
    """The ``openAPIV3Schema`` of the served version of CRD ``kind`` in the chart archive's ``crds/``."""
    with tarfile.open(fileobj=io.BytesIO(archive_bytes(chart_name, version)), mode="r:gz") as archive:
        for member in archive.getmembers():
            if "/crds/" not in member.name or not member.isfile():
                continue
            extracted = archive.extractfile(member)
            assert extracted is not None
            for doc in yaml.load_all(extracted.read(), Loader=_LOADER):
                if doc and doc.get("kind") == "CustomResourceDefinition" and doc["spec"]["names"]["kind"] == kind:
                    (served,) = [v for v in doc["spec"]["versions"] if v.get("storage")]
                    schema: Mapping[str, Any] = served["schema"]["openAPIV3Schema"]
                    return schema
    raise KeyError(f"{chart_name} {version}: no CRD of kind {kind}")


def pod_specs(objects: Sequence[Obj]) -> Iterator[tuple[Obj, Obj]]:
    """(workload, its pod spec) for every DaemonSet, Deployment and Job."""
    for obj in objects:
        if obj.get("kind") in ("DaemonSet", "Deployment", "Job", "StatefulSet"):
            yield obj, obj["spec"]["template"]["spec"]


def tolerates(tolerations: Sequence[Mapping[str, Any]], key: str, value: str, effect: str) -> bool:
    """Kubernetes toleration matching: empty key with Exists matches all; same key, Exists or equal value, same
    effect or none."""
    for t in tolerations:
        operator = t.get("operator", "Equal")
        if t.get("effect", "") not in ("", effect):
            continue
        if not t.get("key") and operator == "Exists":
            return True
        if t.get("key") == key and (operator == "Exists" or t.get("value", "") == value):
            return True
    return False


def selects(pod_spec: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    """Whether a node with ``labels`` passes the pod's nodeSelector and required node affinity."""
    if any(labels.get(k) != v for k, v in (pod_spec.get("nodeSelector") or {}).items()):
        return False
    required = (
        (pod_spec.get("affinity") or {}).get("nodeAffinity", {}).get("requiredDuringSchedulingIgnoredDuringExecution")
    )
    if not required:
        return True
    return any(_term(term, labels) for term in required.get("nodeSelectorTerms", []))


def _term(term: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    for expression in term.get("matchExpressions", []):
        key, operator, values = expression["key"], expression["operator"], expression.get("values", [])
        ok = {
            "In": key in labels and labels[key] in values,
            "NotIn": key not in labels or labels[key] not in values,
            "Exists": key in labels,
            "DoesNotExist": key not in labels,
        }[operator]
        if not ok:
            return False
    return True


K8S = "1.32.0"
"""The Kubernetes schema version the other manifest tests validate against (tests/core/test_workload.py)."""
CORE_GROUPS = (
    "apps/", "batch/", "rbac.authorization.k8s.io/", "policy/", "networking.k8s.io/", "scheduling.k8s.io/",
    "admissionregistration.k8s.io/", "resource.k8s.io/", "node.k8s.io/", "apiextensions.k8s.io/",
)  # fmt: skip
"""API groups of built-in kinds (besides the core ``v1``)."""


def is_core(obj: Mapping[str, Any]) -> bool:
    """Whether ``obj`` is a built-in Kubernetes kind (custom resources have their own CRD schema)."""
    api_version = str(obj.get("apiVersion", ""))
    return api_version == "v1" or api_version.startswith(CORE_GROUPS)


@functools.cache
def _strict_validator(kind: str, api_version: str, version: str = K8S) -> jsonschema.Draft202012Validator:
    """kubernetes-validate's strict schema for (kind, apiVersion), built once (its ``validate`` reads and parses
    the schema files on every call: about 6 ms an object; a cached validator takes well under 1 ms)."""
    minor = ".".join(version.split(".")[:2])
    (schema_version,) = [v for v in kubernetes_validate.utils.all_versions() if v.startswith(minor + ".")][:1]
    schema_dir = f"kubernetes-json-schema/v{schema_version}-local-strict"
    group_version = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)
    schema = kubernetes_validate.utils.schema_contents(f"{schema_dir}/{kind.lower()}-{group_version}.json", version)
    definitions = kubernetes_validate.utils.schema_contents(f"{schema_dir}/_definitions.json", version)
    registry: Registry[Any] = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.Draft202012Validator(schema, registry=registry)


def strict_problems(obj: Mapping[str, Any], kube_version: str = K8S) -> list[str]:
    """Every way a built-in object breaks the strict Kubernetes schema (unknown fields included) of
    ``kube_version`` (``resource.k8s.io/v1`` needs 1.34)."""
    validator = _strict_validator(str(obj["kind"]), str(obj["apiVersion"]), kube_version)
    return [f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(obj)]


@functools.cache
def _crd_validator(chart_name: str, version: str, kind: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(dict(crd_schema(chart_name, version, kind)))


def crd_problems(chart_name: str, version: str, obj: Mapping[str, Any]) -> list[str]:
    """Every way a custom resource breaks its CRD's schema, and every field the apiserver would prune (structural
    schemas drop unknown fields silently, so a misspelt field would do nothing)."""
    kind = str(obj["kind"])
    schema = crd_schema(chart_name, version, kind)
    found = [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
        for e in _crd_validator(chart_name, version, kind).iter_errors(obj)
    ]
    found.extend(f"{path}: unknown field (pruned)" for path in _pruned(obj, schema, ""))
    return found


def _pruned(value: Any, schema: Mapping[str, Any], at: str) -> Iterator[str]:
    if schema.get("x-kubernetes-preserve-unknown-fields"):
        return
    if isinstance(value, Mapping):
        properties = schema.get("properties")
        extra = schema.get("additionalProperties")
        for key, item in value.items():
            if at == "" and key in ("apiVersion", "kind", "metadata"):
                continue
            if properties is not None and key in properties:
                yield from _pruned(item, properties[key], f"{at}{key}.")
            elif isinstance(extra, Mapping):
                yield from _pruned(item, extra, f"{at}{key}.")
            elif properties is not None or extra is False:
                yield f"{at}{key}"
    elif isinstance(value, list) and isinstance(schema.get("items"), Mapping):
        for index, item in enumerate(value):
            yield from _pruned(item, schema["items"], f"{at}{index}.")
