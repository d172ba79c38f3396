"""The in-memory object store: one lock, a global resourceVersion, an event history for watches."""

from __future__ import annotations

import base64
import binascii
import copy
import json
import threading
import uuid
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from . import errors
from .resources import RESOURCE_TYPES, Obj, ResourceType, resolve, type_of
from .selectors import LabelSelector
from .strategy import apply_write_rules, defaults_on_create, meta_of, same_object
from .validation import validate

Key = tuple[str, str]  # (namespace or "", name)
Mutation = Callable[[Obj], Obj | None]

FIRST_RESOURCE_VERSION = 1000


def now_timestamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class Event:
    """One write, as watches see it: `old` is the state before (None for ADDED)."""

    rv: int
    type: str  # ADDED, MODIFIED, DELETED
    rt: ResourceType
    obj: Obj
    old: Obj | None


@dataclass(frozen=True)
class Page:
    items: list[Obj]
    resource_version: str
    continue_token: str | None
    remaining: int | None


def _key(rt: ResourceType, namespace: str | None, name: str) -> Key:
    return (namespace or "" if rt.namespaced else "", name)


class Store:
    """Thread-safe. Test code uses the kind-name API (add, put, modify, label, get, objects, delete);
    the HTTP layer reads pages and watches and writes merge patches through update."""

    def __init__(self, history: int = 10_000) -> None:
        self._cond = threading.Condition(threading.RLock())
        self._objects: dict[str, dict[Key, Obj]] = {rt.plural: {} for rt in RESOURCE_TYPES}
        self._rv = FIRST_RESOURCE_VERSION
        self._events: deque[Event] = deque(maxlen=history)
        self._compacted_rv = 0
        self._snapshots: OrderedDict[int, tuple[int, list[Obj]]] = OrderedDict()
        self._snapshot_seq = 0
        self._closed = False
        self.logs: dict[tuple[str, str], str] = {}
        """A pod's log by (namespace, name), as ``GET .../pods/NAME/log`` answers it."""

    # ------------------------------------------------------------ test-facing API

    @property
    def resource_version(self) -> str:
        with self._cond:
            return str(self._rv)

    def add(self, obj: Obj) -> Obj:
        """Create an object (kind and apiVersion say which type); 409-style StatusError if it exists."""
        return self.create(type_of(obj), copy.deepcopy(obj))

    def put(self, obj: Obj) -> Obj:
        """Create or overwrite an object without a resourceVersion check; status is taken as given."""
        rt = type_of(obj)
        meta = obj.get("metadata") or {}
        with self._cond:
            if self._objects[rt.plural].get(_key(rt, meta.get("namespace"), meta.get("name", ""))) is None:
                return self.create(rt, copy.deepcopy(obj))
            fresh = copy.deepcopy(obj)
            meta_of(fresh).pop("resourceVersion", None)
            return self.update(rt, meta.get("namespace"), meta["name"], lambda _old: fresh)

    def modify(self, kind: str | ResourceType, name: str, fn: Mutation, namespace: str | None = None) -> Obj:
        """Apply fn to a copy of the stored object (mutate it or return a new one) and store the result."""
        return self.update(resolve(kind), namespace, name, fn)

    def label(
        self, kind: str | ResourceType, name: str, labels: Mapping[str, str | None], namespace: str | None = None
    ) -> Obj:
        """Set labels (None removes one), e.g. to simulate a node's labels landing after it registered."""

        def apply(obj: Obj) -> None:
            have = meta_of(obj).setdefault("labels", {})
            for key, value in labels.items():
                if value is None:
                    have.pop(key, None)
                else:
                    have[key] = value

        return self.modify(kind, name, apply, namespace)

    def get(self, kind: str | ResourceType, name: str, namespace: str | None = None) -> Obj | None:
        rt = resolve(kind)
        with self._cond:
            found = self._objects[rt.plural].get(_key(rt, namespace, name))
            return copy.deepcopy(found) if found is not None else None

    def objects(self, kind: str | ResourceType, namespace: str | None = None) -> list[Obj]:
        rt = resolve(kind)
        with self._cond:
            return copy.deepcopy(self._sorted(rt, namespace))

    def delete(self, kind: str | ResourceType, name: str, namespace: str | None = None) -> Obj:
        """Delete immediately (finalizers ignored)."""
        rt = resolve(kind)
        with self._cond:
            return self._delete_now(rt, self._require(rt, namespace, name))

    # ------------------------------------------------------------ writes

    def create(self, rt: ResourceType, obj: Obj) -> Obj:
        """Store a new object as given (test code seeding the store); 409 AlreadyExists if it exists."""
        with self._cond:
            meta = meta_of(obj)
            obj["apiVersion"], obj["kind"] = rt.api_version, rt.kind
            if not rt.namespaced:
                meta.pop("namespace", None)
            elif not meta.get("namespace"):
                raise errors.bad_request("the namespace of the object does not match the namespace on the request")
            if not meta.get("name"):
                raise errors.invalid(
                    rt, "", [("metadata.name", "FieldValueRequired", "Required value: name is required")]
                )
            key = _key(rt, meta.get("namespace"), meta["name"])
            if key in self._objects[rt.plural]:
                raise errors.already_exists(rt, meta["name"])
            meta.setdefault("uid", str(uuid.uuid4()))
            meta.setdefault("creationTimestamp", now_timestamp())
            defaults_on_create(rt, obj)
            validate(rt, obj)
            return self._commit(rt, key, None, obj)

    def update(self, rt: ResourceType, namespace: str | None, name: str, fn: Mutation) -> Obj:
        """Read-modify-write under the lock; a no-op write keeps the resourceVersion and emits no event."""
        with self._cond:
            old = self._require(rt, namespace, name)
            draft = copy.deepcopy(old)
            changed = fn(draft)
            new = changed if changed is not None else draft
            if not isinstance(new, dict):
                raise errors.bad_request("the updated object is not a JSON object")
            sent_rv = meta_of(new).get("resourceVersion")
            if sent_rv and str(sent_rv) != old["metadata"]["resourceVersion"]:
                raise errors.conflict(rt, name)
            new = apply_write_rules(rt, old, new)
            validate(rt, new)
            if same_object(old, new):
                return copy.deepcopy(old)
            return self._commit(rt, _key(rt, namespace, name), old, new)

    # ------------------------------------------------------------ reads for lists and watches

    def page(
        self,
        rt: ResourceType,
        namespace: str | None,
        labels: LabelSelector,
        *,
        limit: int | None = None,
        continue_token: str | None = None,
    ) -> Page:
        """One page of a list. Continuation reads the snapshot taken by the first page, like etcd does.

        The items are the stored objects themselves (they are never mutated in place): read-only."""
        with self._cond:
            if continue_token:
                snap_id, position = self._decode_continue(continue_token)
                found = self._snapshots.get(snap_id)
                if found is None:
                    raise errors.gone(
                        "The provided continue parameter is too old to display a consistent list result. "
                        "You can start a new list without the continue parameter."
                    )
                rv, items = found
            else:
                rv, items, position = self._rv, self._sorted(rt, namespace), 0
                snap_id = -1
            chosen: list[Obj] = []
            while position < len(items) and (not limit or len(chosen) < limit):
                item = items[position]
                position += 1
                if labels.matches(item["metadata"].get("labels")):
                    chosen.append(item)
            token: str | None = None
            remaining: int | None = None
            if limit and position < len(items):
                if snap_id < 0:
                    snap_id = self._remember(rv, items)
                token = self._encode_continue(snap_id, rv, position)
                if labels.empty:
                    remaining = len(items) - position
            return Page(chosen, str(rv), token, remaining)

    def check_watch_start(self, rv: int) -> None:
        with self._cond:
            if rv < self._compacted_rv:
                raise errors.gone(f"too old resource version: {rv} ({self._rv})")

    def wait_events(self, after_rv: int, timeout: float) -> list[Event] | None:
        """Events after `after_rv`, waiting up to `timeout` for one; None once the store is closed."""
        with self._cond:
            if after_rv < self._compacted_rv:
                raise errors.gone(f"too old resource version: {after_rv} ({self._rv})")
            self._cond.wait_for(lambda: self._closed or self._rv > after_rv, timeout=max(timeout, 0))
            if self._closed:
                return None
            return [e for e in self._events if e.rv > after_rv]

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    # ------------------------------------------------------------ internals

    def _require(self, rt: ResourceType, namespace: str | None, name: str) -> Obj:
        found = self._objects[rt.plural].get(_key(rt, namespace, name))
        if found is None:
            raise errors.not_found(rt, name)
        return found

    def _sorted(self, rt: ResourceType, namespace: str | None) -> list[Obj]:
        objs = self._objects[rt.plural]
        return [objs[k] for k in sorted(objs) if not (rt.namespaced and namespace) or k[0] == namespace]

    def _commit(self, rt: ResourceType, key: Key, old: Obj | None, new: Obj) -> Obj:
        self._rv += 1
        new["metadata"]["resourceVersion"] = str(self._rv)
        self._objects[rt.plural][key] = new
        self._record(Event(self._rv, "ADDED" if old is None else "MODIFIED", rt, new, old))
        return copy.deepcopy(new)

    def _delete_now(self, rt: ResourceType, obj: Obj) -> Obj:
        key = _key(rt, obj["metadata"].get("namespace"), obj["metadata"]["name"])
        before = self._objects[rt.plural].get(key, obj)
        self._objects[rt.plural].pop(key, None)
        self._rv += 1
        gone = copy.deepcopy(obj)
        gone["metadata"]["resourceVersion"] = str(self._rv)
        self._record(Event(self._rv, "DELETED", rt, gone, before))
        return copy.deepcopy(gone)

    def _record(self, event: Event) -> None:
        if self._events.maxlen is not None and len(self._events) == self._events.maxlen:
            self._compacted_rv = self._events[0].rv
        self._events.append(event)
        self._cond.notify_all()

    def _remember(self, rv: int, items: list[Obj]) -> int:
        self._snapshot_seq += 1
        self._snapshots[self._snapshot_seq] = (rv, items)
        while len(self._snapshots) > 64:
            self._snapshots.popitem(last=False)
        return self._snapshot_seq

    @staticmethod
    def _encode_continue(snap_id: int, rv: int, position: int) -> str:
        raw = json.dumps({"v": "standin/v1", "rv": rv, "snap": snap_id, "pos": position}).encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    @staticmethod
    def _decode_continue(token: str) -> tuple[int, int]:
        try:
            raw = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
            return int(raw["snap"]), int(raw["pos"])
        except (ValueError, KeyError, TypeError, binascii.Error) as exc:
            raise errors.bad_request(f"continue key is not valid: {exc}") from exc


def seed(store: Store, objects: Iterable[Obj]) -> None:
    """Load objects (or v1 List documents holding them), namespaces first so namespaced objects find them."""
    flat: list[Obj] = []
    for obj in objects:
        if str(obj.get("kind", "")).endswith("List") and isinstance(obj.get("items"), list):
            flat.extend(obj["items"])
        else:
            flat.append(obj)
    flat.sort(key=lambda o: 0 if o.get("kind") == "Namespace" else 1)
    for obj in flat:
        store.put(obj)
