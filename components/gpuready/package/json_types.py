"""JSON Schema (pydantic's ``model_json_schema``) -> Pulumi package schema types. Pure.

Pulumi's schema (https://www.pulumi.com/docs/iac/extending-pulumi/schema/, "Type" and "Enum") knows primitives,
arrays, maps (``additionalProperties``), ``$ref`` to object or enum types and ``oneOf``. A discriminated union of
objects (``sharing``) becomes one object type with every key of every form (the model still refuses keys a mode
does not take), so every language's SDK gets one plain type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PACKAGE = "gpuready"
ANY = {"$ref": "pulumi.json#/Any"}
PRIMITIVES = frozenset({"string", "integer", "number", "boolean"})

Json = dict[str, Any]


def token(name: str) -> str:
    """The schema token of a type or resource of the package (``gpuready:index:<Name>``)."""
    return f"{PACKAGE}:index:{name}"


def pascal(text: str) -> str:
    """``time-slicing`` -> ``TimeSlicing``, ``nodePools`` -> ``NodePools``."""
    return "".join(part[:1].upper() + part[1:] for part in text.replace("-", " ").replace(".", " ").split())


class TypeWriter:
    """Converts the JSON Schema of config models into Pulumi types, collecting the object and enum types."""

    def __init__(self, defs: Mapping[str, Json]) -> None:
        self.defs = dict(defs)
        self.types: dict[str, Json] = {}

    def add_defs(self, defs: Mapping[str, Json]) -> None:
        self.defs.update(defs)

    def object_type(self, name: str, schema: Json) -> str:
        """Register the object type ``name`` from a model's schema; its token."""
        if token(name) not in self.types:
            self.types[token(name)] = {}  # reserved first: a model may refer to itself
            properties, required = self.properties(name, schema)
            spec: Json = {"type": "object", "properties": properties}
            if schema.get("description"):
                spec["description"] = schema["description"]
            if required:
                spec["required"] = required
            self.types[token(name)] = spec
        return token(name)

    def properties(self, owner: str, schema: Json) -> tuple[Json, list[str]]:
        """Pulumi properties (and the required names) of one model's JSON Schema."""
        properties = {key: self.property(owner, key, value) for key, value in schema.get("properties", {}).items()}
        return properties, [key for key in schema.get("required", []) if key in properties]

    def property(self, owner: str, key: str, schema: Json) -> Json:
        spec = self.type_of(owner + pascal(key), schema)
        if schema.get("description"):
            spec["description"] = schema["description"]
        default = schema.get("default")
        if isinstance(default, str | bool | int | float):
            spec["default"] = default
        return spec

    def type_of(self, name: str, schema: Json) -> Json:
        """The Pulumi type of one JSON Schema node; ``name`` names an enum or merged object made for it."""
        schema = _without_null(schema)
        if "$ref" in schema:
            ref = schema["$ref"].rsplit("/", 1)[-1]
            return {"$ref": f"#/types/{self.object_type(ref, self.defs[ref])}"}
        if "enum" in schema or "const" in schema:
            return {"$ref": f"#/types/{self.enum_type(name, schema)}"}
        union = schema.get("oneOf") or schema.get("anyOf")
        if union:
            return self.union(name, schema, union)
        kind = schema.get("type")
        if kind == "array":
            return {"type": "array", "items": self.type_of(name + "Item", schema.get("items", {}))}
        if kind == "object":
            extra = schema.get("additionalProperties", True)
            items = ANY if extra is True or extra == {} else self.type_of(name + "Value", extra)
            return {"type": "object", "additionalProperties": items}
        if kind in PRIMITIVES:
            return {"type": kind}
        return dict(ANY)

    def enum_type(self, name: str, schema: Json) -> str:
        values = schema["enum"] if "enum" in schema else [schema["const"]]
        self.types[token(name)] = {
            "type": schema.get("type", "string"),
            "enum": [{"name": pascal(str(v).replace("_", "-")) or str(v), "value": v} for v in values],
        }
        return token(name)

    def union(self, name: str, schema: Json, members: list[Json]) -> Json:
        refs = [m["$ref"].rsplit("/", 1)[-1] for m in members if "$ref" in m]
        if refs and len(refs) == len(members) and "discriminator" in schema:
            return {"$ref": f"#/types/{self.merged(name, refs, schema['discriminator']['propertyName'])}"}
        return {"oneOf": [self.type_of(name, member) for member in members]}

    def merged(self, name: str, refs: list[str], discriminator: str) -> str:
        """One object type with the keys of every form; the discriminator's enum lists every form's value."""
        forms = [self.defs[ref] for ref in refs]
        values: list[Any] = []
        merged: Json = {}
        for form in forms:
            tag = form["properties"][discriminator]
            values.extend(tag["enum"] if "enum" in tag else [tag["const"]])
            merged.update({k: v for k, v in form["properties"].items() if k != discriminator})
        descriptions = "; ".join(f"{form['description']}" for form in forms if form.get("description"))
        tag_schema = {"type": "string", "enum": values}
        combined = {"properties": {discriminator: tag_schema, **merged}, "required": [discriminator]}
        combined["description"] = descriptions
        return self.object_type(name, combined)


def _without_null(schema: Json) -> Json:
    """``X | None`` -> ``X`` (optional is the property's absence from ``required``)."""
    members = schema.get("anyOf")
    if members and any(m == {"type": "null"} for m in members):
        rest = [m for m in members if m != {"type": "null"}]
        base = {k: v for k, v in schema.items() if k != "anyOf"}
        return {**base, **rest[0]} if len(rest) == 1 else {**base, "anyOf": rest}
    return schema
