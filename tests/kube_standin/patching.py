"""JSON patch (RFC 6902), JSON merge patch (RFC 7386) and strategic merge patch.

The strategic-merge list strategies below are the ones the Kubernetes 1.32 API declares
(`x-kubernetes-patch-strategy: merge` with `x-kubernetes-patch-merge-key`) for the fields of the kinds
the stand-in serves. Every other list is atomic and a strategic merge patch replaces it; notably
`Node.spec.taints` is `x-kubernetes-list-type: atomic` with no patch strategy, so a real apiserver
replaces the whole taint list, and so does the stand-in.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import StatusError, bad_request, unprocessable, unsupported_media_type
from .resources import Obj

JSON_PATCH = "application/json-patch+json"
MERGE_PATCH = "application/merge-patch+json"
STRATEGIC_MERGE_PATCH = "application/strategic-merge-patch+json"
PATCH_TYPES = (JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH)


@dataclass(frozen=True)
class ListStrategy:
    """A list merged by a strategic merge patch; merge_key None means a list of scalars merged as a set."""

    merge_key: str | None
    item: Fields | None = None


@dataclass(frozen=True)
class Fields:
    fields: Mapping[str, Fields | ListStrategy] = field(default_factory=dict)


NO_SCHEMA = Fields()
OBJECT_META = Fields({"ownerReferences": ListStrategy("uid"), "finalizers": ListStrategy(None)})
CONTAINER = Fields(
    {
        "env": ListStrategy("name"),
        "ports": ListStrategy("containerPort"),
        "volumeMounts": ListStrategy("mountPath"),
        "volumeDevices": ListStrategy("devicePath"),
    }
)
POD_SPEC = Fields(
    {
        "containers": ListStrategy("name", CONTAINER),
        "initContainers": ListStrategy("name", CONTAINER),
        "ephemeralContainers": ListStrategy("name", CONTAINER),
        "volumes": ListStrategy("name"),
        "imagePullSecrets": ListStrategy("name"),
        "hostAliases": ListStrategy("ip"),
        "schedulingGates": ListStrategy("name"),
        "topologySpreadConstraints": ListStrategy("topologyKey"),
        "resourceClaims": ListStrategy("name"),
    }
)
POD_STATUS = Fields(
    {
        "conditions": ListStrategy("type"),
        "podIPs": ListStrategy("ip"),
        "hostIPs": ListStrategy("ip"),
        "resourceClaimStatuses": ListStrategy("name"),
    }
)
CONDITIONS_ONLY = Fields({"conditions": ListStrategy("type")})
SCHEMAS: dict[str, Fields] = {
    "nodes": Fields(
        {
            "metadata": OBJECT_META,
            "spec": Fields({"podCIDRs": ListStrategy(None)}),  # taints: atomic, replaced
            "status": Fields({"conditions": ListStrategy("type"), "addresses": ListStrategy("type")}),
        }
    ),
    "namespaces": Fields({"metadata": OBJECT_META, "status": CONDITIONS_ONLY}),
    "pods": Fields({"metadata": OBJECT_META, "spec": POD_SPEC, "status": POD_STATUS}),
    "configmaps": Fields({"metadata": OBJECT_META}),
    "daemonsets": Fields(
        {
            "metadata": OBJECT_META,
            "spec": Fields({"template": Fields({"metadata": OBJECT_META, "spec": POD_SPEC})}),
            "status": CONDITIONS_ONLY,
        }
    ),
}


# ---------------------------------------------------------------- JSON patch


def _pointer(path: Any) -> list[str]:
    if not isinstance(path, str):
        raise bad_request(f"invalid JSON pointer: {path!r}")
    if path == "":
        return []
    if not path.startswith("/"):
        raise unprocessable(f'JSON pointer must start with "/": {path!r}')
    return [t.replace("~1", "/").replace("~0", "~") for t in path[1:].split("/")]


def _list_index(token: str, size: int, *, allow_end: bool) -> int:
    if allow_end and token == "-":
        return size
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise unprocessable(f"invalid array index: {token!r}")
    index = int(token)
    if index > size or (index == size and not allow_end):
        raise unprocessable(f"array index out of bounds: {index}")
    return index


def _resolve_parent(doc: Any, tokens: list[str], op: str, path: str) -> Any:
    cur = doc
    for token in tokens[:-1]:
        if isinstance(cur, dict) and token in cur:
            cur = cur[token]
        elif isinstance(cur, list):
            cur = cur[_list_index(token, len(cur), allow_end=False)]
        else:
            raise unprocessable(f'{op} operation does not apply: doc is missing path: "{path}": missing value')
    return cur


def _get(doc: Any, path: str, op: str) -> Any:
    tokens = _pointer(path)
    if not tokens:
        return doc
    parent = _resolve_parent(doc, tokens, op, path)
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        return parent[last]
    if isinstance(parent, list):
        return parent[_list_index(last, len(parent), allow_end=False)]
    raise unprocessable(f'{op} operation does not apply: doc is missing path: "{path}": missing value')


def _add(doc: Any, path: str, value: Any, op: str = "add") -> Any:
    tokens = _pointer(path)
    if not tokens:
        return value
    parent = _resolve_parent(doc, tokens, op, path)
    last = tokens[-1]
    if isinstance(parent, dict):
        parent[last] = value
    elif isinstance(parent, list):
        parent.insert(_list_index(last, len(parent), allow_end=True), value)
    else:
        raise unprocessable(f'{op} operation does not apply: doc is missing path: "{path}": missing value')
    return doc


def _remove(doc: Any, path: str, op: str = "remove") -> Any:
    tokens = _pointer(path)
    if not tokens:
        raise unprocessable(f"{op} operation does not apply: cannot remove the whole document")
    parent = _resolve_parent(doc, tokens, op, path)
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        del parent[last]
    elif isinstance(parent, list):
        del parent[_list_index(last, len(parent), allow_end=False)]
    else:
        raise unprocessable(f'{op} operation does not apply: doc is missing path: "{path}": missing value')
    return doc


def _replace(doc: Any, path: str, value: Any) -> Any:
    tokens = _pointer(path)
    if not tokens:
        return value
    parent = _resolve_parent(doc, tokens, "replace", path)
    last = tokens[-1]
    if isinstance(parent, dict) and last in parent:
        parent[last] = value
    elif isinstance(parent, list):
        parent[_list_index(last, len(parent), allow_end=False)] = value
    else:
        raise unprocessable(f'replace operation does not apply: doc is missing key: "{path}": missing value')
    return doc


def json_patch(doc: Any, operations: Any) -> Any:
    """Apply an RFC 6902 patch to a copy of `doc`."""
    if not isinstance(operations, list):
        raise bad_request("json: cannot unmarshal object into Go value of type jsonpatch.Patch")
    result = copy.deepcopy(doc)
    for operation in operations:
        if not isinstance(operation, dict) or "op" not in operation or "path" not in operation:
            raise bad_request(f"invalid JSON patch operation: {operation!r}")
        op, path = operation["op"], operation["path"]
        if op in ("add", "replace", "test") and "value" not in operation:
            raise bad_request(f'{op} operation is missing "value"')
        if op == "add":
            result = _add(result, path, copy.deepcopy(operation["value"]))
        elif op == "remove":
            result = _remove(result, path)
        elif op == "replace":
            result = _replace(result, path, copy.deepcopy(operation["value"]))
        elif op in ("move", "copy"):
            source = operation.get("from")
            if not isinstance(source, str):
                raise bad_request(f'{op} operation is missing "from"')
            value = copy.deepcopy(_get(result, source, op))
            if op == "move":
                if path.startswith(source + "/"):
                    raise unprocessable("move operation does not apply: cannot move a value into one of its children")
                result = _remove(result, source, op)
            result = _add(result, path, value, op)
        elif op == "test":
            if _get(result, path, "test") != operation["value"]:
                raise unprocessable(f"testing value {path} failed: test failed")
        else:
            raise bad_request(f"Unexpected kind: {op}")
    return result


# ---------------------------------------------------------------- JSON merge patch


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7386: objects merge recursively, null deletes, anything else replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    result = dict(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            result.pop(key, None)
        else:
            result[key] = merge_patch(result.get(key), value)
    return result


# ---------------------------------------------------------------- strategic merge patch

_DELETE = object()


def strategic_merge_patch(original: Any, patch: Any, schema: Fields = NO_SCHEMA) -> Any:
    if not isinstance(patch, dict):
        raise bad_request("strategic merge patch must be a JSON object")
    merged = _merge_map(original if isinstance(original, dict) else {}, patch, schema)
    return {} if merged is _DELETE else merged


def _merge_map(original: Obj, patch: Obj, schema: Fields) -> Any:
    directive = patch.get("$patch")
    if directive == "delete":
        return _DELETE
    if directive == "replace":
        return _strip_directives({k: v for k, v in patch.items() if k != "$patch"})
    if directive not in (None, "merge"):
        raise bad_request(f"Unknown patch type: {directive} in map: {patch}")
    result = copy.deepcopy(original)
    order: dict[str, list[Any]] = {}
    for key, value in patch.items():
        if key in ("$patch", "$retainKeys"):
            continue
        if key.startswith("$setElementOrder/"):
            if isinstance(value, list):
                order[key.split("/", 1)[1]] = value
            continue
        if key.startswith("$deleteFromPrimitiveList/"):
            name = key.split("/", 1)[1]
            if isinstance(result.get(name), list) and isinstance(value, list):
                result[name] = [item for item in result[name] if item not in value]
            continue
        if key.startswith("$"):
            raise bad_request(f"unknown strategic merge patch directive: {key}")
        if value is None:
            result.pop(key, None)
            continue
        sub = schema.fields.get(key)
        current = result.get(key)
        if isinstance(value, dict):
            merged = _merge_map(
                current if isinstance(current, dict) else {}, value, sub if isinstance(sub, Fields) else NO_SCHEMA
            )
            if merged is _DELETE:
                result.pop(key, None)
            else:
                result[key] = merged
        elif isinstance(value, list) and isinstance(sub, ListStrategy):
            result[key] = _merge_list(current if isinstance(current, list) else [], value, sub)
        elif isinstance(value, list):
            result[key] = [_strip_directives(v) for v in value if not _is_directive_only(v)]
        else:
            result[key] = value
    for name, wanted in order.items():
        if isinstance(result.get(name), list):
            result[name] = _apply_order(result[name], wanted, schema.fields.get(name))
    retain = patch.get("$retainKeys")
    if isinstance(retain, list):
        result = {k: v for k, v in result.items() if k in retain}
    return result


def _is_directive_only(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"$patch"}


def _strip_directives(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_directives(v) for k, v in value.items() if not k.startswith("$") and v is not None}
    if isinstance(value, list):
        return [_strip_directives(v) for v in value]
    return value


def _merge_list(original: list[Any], patch: list[Any], strategy: ListStrategy) -> list[Any]:
    key = strategy.merge_key
    if key is None:  # set of scalars
        result = list(original)
        for item in patch:
            if isinstance(item, (dict, list)):
                raise bad_request("a list of scalars cannot hold objects in a strategic merge patch")
            if item not in result:
                result.append(item)
        return result
    if any(isinstance(item, dict) and item.get("$patch") == "replace" for item in patch):
        return [_strip_directives(item) for item in patch if not (isinstance(item, dict) and "$patch" in item)]
    result = copy.deepcopy(original)
    for item in patch:
        if not isinstance(item, dict):
            raise bad_request(f"a strategic merge patch list element for merge key {key} must be an object")
        if key not in item:
            raise bad_request(f"map: {item} does not contain declared merge key: {key}")
        index = next(
            (i for i, have in enumerate(result) if isinstance(have, dict) and have.get(key) == item[key]), None
        )
        if item.get("$patch") == "delete":
            if index is not None:
                del result[index]
            continue
        item_schema = strategy.item or NO_SCHEMA
        if index is None:
            result.append(_merge_map({}, item, item_schema))
        else:
            result[index] = _merge_map(result[index], item, item_schema)
    return result


def _apply_order(items: list[Any], wanted: list[Any], strategy: Fields | ListStrategy | None) -> list[Any]:
    key = strategy.merge_key if isinstance(strategy, ListStrategy) else None

    def ident(item: Any) -> Any:
        return item.get(key) if key is not None and isinstance(item, dict) else item

    wanted_ids = [ident(w) for w in wanted]
    ranked = [item for wid in wanted_ids for item in items if ident(item) == wid]
    return ranked + [item for item in items if ident(item) not in wanted_ids]


# ---------------------------------------------------------------- dispatch


def media_type(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def apply_patch(content_type: str | None, original: Obj, body: bytes, plural: str) -> Obj:
    """Apply a PATCH body according to its Content-Type; 415 for anything but the three patch types."""
    mime = media_type(content_type)
    # Compare whole media types: "strategic-merge-patch" contains "merge-patch", so a substring test
    # would route strategic patches to the merge-patch code.
    if mime not in PATCH_TYPES:
        raise unsupported_media_type(mime, list(PATCH_TYPES))
    try:
        patch = json.loads(body or b"null")
    except ValueError as exc:
        raise bad_request(f"error decoding patch: {exc}") from exc
    if mime == STRATEGIC_MERGE_PATCH:
        result = strategic_merge_patch(original, patch, SCHEMAS.get(plural, NO_SCHEMA))
    elif mime == MERGE_PATCH:
        if not isinstance(patch, dict):
            raise bad_request("merge patch must be a JSON object")
        result = merge_patch(original, patch)
    else:
        result = json_patch(original, patch)
    if not isinstance(result, dict):
        raise StatusError(422, "Invalid", "the patched object is not a JSON object")
    return result
