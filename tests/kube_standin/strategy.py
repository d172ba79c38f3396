"""Per-kind write rules, in the spirit of the apiserver's registry strategies."""

from __future__ import annotations

import copy
from typing import Any

from . import errors
from .resources import Obj, ResourceType


def meta_of(obj: Obj) -> Obj:
    meta = obj.setdefault("metadata", {})
    if not isinstance(meta, dict):
        raise errors.bad_request("Object 'metadata' is not an object")
    return meta


_KEPT_META = ("name", "namespace", "uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds")


def defaults_on_create(rt: ResourceType, obj: Obj) -> None:
    """What the apiserver fills in on create for the served kinds (a node's status is kept as given)."""
    if rt.plural == "namespaces":
        obj.setdefault("spec", {}).setdefault("finalizers", ["kubernetes"])
        obj.setdefault("status", {}).setdefault("phase", "Active")
        meta_of(obj).setdefault("labels", {})["kubernetes.io/metadata.name"] = obj["metadata"]["name"]


def apply_write_rules(rt: ResourceType, old: Obj, new: Obj) -> Obj:
    """The object an update stores: identity (name, uid, creation time) kept from `old`."""
    new = copy.deepcopy(new)
    new["apiVersion"], new["kind"] = rt.api_version, rt.kind
    meta, old_meta = meta_of(new), old["metadata"]
    for field in _KEPT_META:
        if field in old_meta:
            meta[field] = old_meta[field]
        else:
            meta.pop(field, None)
    meta["resourceVersion"] = old_meta["resourceVersion"]
    if rt.plural == "namespaces":
        meta.setdefault("labels", {})["kubernetes.io/metadata.name"] = meta["name"]
    return new


def same_object(old: Obj, new: Obj) -> bool:
    """A no-op write: the apiserver then keeps the resourceVersion and emits no watch event."""
    return bool(_without_rv(old) == _without_rv(new))


def _without_rv(obj: Obj) -> Any:
    clone = dict(obj)
    clone["metadata"] = {k: v for k, v in obj["metadata"].items() if k not in ("resourceVersion", "managedFields")}
    return clone
