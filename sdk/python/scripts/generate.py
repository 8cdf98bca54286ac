#!/usr/bin/env python3
"""Writes the Python SDK's generated modules (standard library only):

- ``src/errand/_generated.py``: TypedDicts for every operation of the daemon's OpenAPI document (``<Op>Body``,
  ``<Op>Query``, ``<Op>Response``, where ``<Op>`` is the method and path: ``PostJobsIdRuns``), every webhook body
  (``<Event>Webhook``) and the shared components. ``errand/types.py`` names the ones callers use (``Run``,
  ``Project``...), as the TypeScript SDK's ``types.ts`` does over its generated file.
- ``src/errand/_sync_client.py``: the synchronous client, made from ``_async_client.py`` by removing ``async`` and
  ``await`` (as httpcore does with unasync), so that both clients are one definition.

Test S10 checks ``_generated.py`` against what ``generate_types`` makes from the document a running daemon serves;
the unit tests check ``_sync_client.py`` against ``unasync``.

    /usr/bin/python3 sdk/python/scripts/generate.py http://127.0.0.1:7370/v1/openapi.json
    /usr/bin/python3 sdk/python/scripts/generate.py openapi.json
"""
from __future__ import annotations

import json
import keyword
import re
import sys
import urllib.request
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "errand"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

HEADER = '''"""Generated from the daemon's OpenAPI document by sdk/python/scripts/generate.py: do not edit.

Regenerate after changing a route schema (test S10 fails until then).
"""
# ruff: noqa
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, Union
'''


def pascal(text: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", text) if part)


def operation_name(method: str, path: str) -> str:
    """``POST /v1/jobs/{id}/runs`` -> ``PostJobsIdRuns``: the method, then every segment after ``/v1``."""
    segments = [s for s in path.split("/") if s and s != "v1"]
    return pascal(method) + "".join(pascal(s.strip("{}")) for s in segments)


class TypeWriter:
    """Turns JSON Schemas into Python type expressions, emitting a TypedDict per object with properties. An object
    schema met again (the same JSON) reuses the first one's name, so a run's envelope is one class."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.blocks: list[str] = []
        self.by_shape: dict[str, str] = {}
        self.names: set[str] = set()

    def unique(self, name: str) -> str:
        candidate, n = name, 2
        while candidate in self.names:
            candidate, n = f"{name}{n}", n + 1
        self.names.add(candidate)
        return candidate

    def type_of(self, schema: Any, name: str) -> str:
        if schema is True or schema is None or schema == {}:
            return "Any"
        if schema is False:
            return "None"
        if "$ref" in schema:
            ref = schema["$ref"]
            target = self.doc
            for part in ref.lstrip("#/").split("/"):
                target = target[part]
            return self.type_of(target, pascal(ref.rsplit("/", 1)[-1]))
        if "const" in schema:
            return f"Literal[{json.dumps(schema['const'])}]"
        if "enum" in schema:
            values = [v for v in schema["enum"] if v is not None]
            literal = f"Literal[{', '.join(literal_value(v) for v in values)}]" if values else "None"
            nullable = None in schema["enum"] or "null" in as_list(schema.get("type"))
            return f"{literal} | None" if nullable and values else literal
        for combiner in ("oneOf", "anyOf"):
            if combiner in schema:
                if "properties" in schema:
                    return self.refined_union(schema, combiner, name)
                members = [self.type_of(member, f"{name}{i + 1}") for i, member in enumerate(schema[combiner])]
                return union(members)
        types = as_list(schema.get("type"))
        if not types:
            types = ["object"] if "properties" in schema else []
        if not types:
            return "Any"
        return union([self.single(schema, t, name) for t in types])

    def single(self, schema: dict[str, Any], type_name: str, name: str) -> str:
        if type_name == "null":
            return "None"
        if type_name == "string":
            return "str"
        if type_name == "integer":
            return "int"
        if type_name == "number":
            return "float"
        if type_name == "boolean":
            return "bool"
        if type_name == "array":
            return f"list[{self.type_of(schema.get('items', {}), name + 'Item')}]"
        if type_name == "object":
            if schema.get("properties"):
                return self.typed_dict(schema, name)
            values = schema.get("additionalProperties", True)
            return f"dict[str, {self.type_of(values, name + 'Value') if isinstance(values, dict) else 'Any'}]"
        return "Any"

    def refined_union(self, schema: dict[str, Any], combiner: str, name: str) -> str:
        """A schema with properties and a oneOf of refinements (the event streams: ``type`` and ``data`` per title):
        one TypedDict per refinement, the base's properties overridden by the refinement's."""
        base = {k: v for k, v in schema.items() if k != combiner}
        members = []
        for i, refinement in enumerate(schema[combiner]):
            merged = dict(base)
            merged["properties"] = {**base.get("properties", {}), **refinement.get("properties", {})}
            if "description" in refinement:
                merged["description"] = refinement["description"]
            members.append(self.typed_dict(merged, name + pascal(refinement.get("title", str(i + 1)))))
        return union(members)

    def typed_dict(self, schema: dict[str, Any], name: str) -> str:
        shape = json.dumps(schema, sort_keys=True)
        if shape in self.by_shape:
            return self.by_shape[shape]
        name = self.unique(name)
        self.by_shape[shape] = name
        required = set(schema.get("required", []))
        fields = []
        for prop, sub in schema["properties"].items():
            annotation = self.type_of(sub, name + pascal(prop))
            fields.append((prop, annotation if prop in required else f"NotRequired[{annotation}]", sub))
        self.blocks.append(render_typed_dict(name, schema.get("description"), fields))
        return name


def render_typed_dict(name: str, description: str | None, fields: list[tuple[str, str, Any]]) -> str:
    if all(prop.isidentifier() and not keyword.iskeyword(prop) for prop, _, _ in fields):
        lines = [f"class {name}(TypedDict):"]
        if description:
            lines.append(f"    {docstring(description, 4)}")
        for prop, annotation, sub in fields:
            lines.append(f"    {prop}: {annotation}")
            if isinstance(sub, dict) and sub.get("description"):
                lines.append(f"    {docstring(sub['description'], 4)}")
        if len(lines) == 1:
            lines.append("    pass")
        return "\n".join(lines) + "\n"
    # A member that is not a Python name (``from``) needs the functional form.
    members = "".join(f"\n    {json.dumps(prop)}: {annotation}," for prop, annotation, _ in fields)
    return f"{name} = TypedDict({json.dumps(name)}, {{{members}\n}})\n"


def docstring(text: str, indent: int) -> str:
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"').strip()
    return '"""' + body.replace("\n", "\n" + " " * indent) + '"""'


def literal_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, bool) else ("True" if value else "False")


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def union(members: list[str]) -> str:
    seen: list[str] = []
    for member in members:
        for part in member.split(" | "):
            if part not in seen:
                seen.append(part)
    if "None" in seen:
        seen.remove("None")
        seen.append("None")
    return " | ".join(seen) if seen else "Any"


def generate_types(doc: dict[str, Any]) -> str:
    writer = TypeWriter(doc)
    aliases: list[str] = []

    def alias(name: str, expression: str) -> None:
        if expression != name:
            writer.names.add(name)
            aliases.append(f"{name} = {expression}\n")

    for path, item in doc.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            op_name = operation_name(method, path)
            query = [p for p in op.get("parameters", []) if p.get("in") == "query"]
            if query:
                alias(f"{op_name}Query", writer.typed_dict(
                    {"type": "object", "required": [p["name"] for p in query if p.get("required")],
                     "properties": {p["name"]: {**p.get("schema", {}), **({"description": p["description"]} if p.get("description") else {})} for p in query}},
                    f"{op_name}Query"))
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body and "schema" in body:
                alias(f"{op_name}Body", writer.type_of(body["schema"], f"{op_name}Body"))
            for status, response in op.get("responses", {}).items():
                if not status.startswith("2"):
                    continue
                content = response.get("content", {})
                media = content.get("application/json") or content.get("text/event-stream")
                if media and "schema" in media:
                    alias(f"{op_name}Response", writer.type_of(media["schema"], f"{op_name}Response"))
                    break
    webhook_names = []
    for event, item in doc.get("webhooks", {}).items():
        body = item.get("post", {}).get("requestBody", {}).get("content", {}).get("application/json")
        if body and "schema" in body:
            name = f"{pascal(event)}Webhook"
            alias(name, writer.type_of(body["schema"], name))
            webhook_names.append(name)
    for name, schema in doc.get("components", {}).get("schemas", {}).items():
        alias(pascal(name), writer.type_of(schema, pascal(name)))
    tail = "".join(aliases)
    tail += f"\nWebhookEvent = Union[{', '.join(webhook_names)}]\n" if webhook_names else "\nWebhookEvent = Any\n"
    tail += f"\nWEBHOOK_EVENT_TYPES: tuple[str, ...] = {tuple(doc.get('webhooks', {}).keys())!r}\n"
    return HEADER + "\n\n" + "\n\n".join(writer.blocks) + "\n\n" + tail


# unasync: the words of the async client that differ in the sync one.
UNASYNC_WORDS = {
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "__aiter__": "__iter__",
    "__anext__": "__next__",
    "StopAsyncIteration": "StopIteration",
    "aclose": "close",
    "aread": "read",
    "aiter_lines": "iter_lines",
    "aiter_bytes": "iter_bytes",
    "asleep": "sleep",
    "anext": "next",
}


def unasync(source: str) -> str:
    source = source.replace(
        '"""The asynchronous client',
        '"""Generated from _async_client.py by sdk/python/scripts/generate.py: do not edit.\n\nThe synchronous client',
        1,
    )
    source = re.sub(r"\basync def\b", "def", source)
    source = re.sub(r"\basync (for|with)\b", r"\1", source)
    source = re.sub(r"\bawait ", "", source)
    source = re.sub(r"\bAsyncGenerator\[([^\[\]]*), None\]", r"Generator[\1, None, None]", source)
    source = re.sub(r"\b(_?)Async([A-Z]\w*)", r"\1\2", source)
    source = re.sub(r"\b(" + "|".join(map(re.escape, UNASYNC_WORDS)) + r")\b", lambda m: UNASYNC_WORDS[m.group(1)], source)
    return source


def load(source: str) -> dict[str, Any]:
    if re.match(r"https?://", source):
        with urllib.request.urlopen(source) as response:
            return json.load(response)
    return json.loads(Path(source).read_text())


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    (PACKAGE / "_generated.py").write_text(generate_types(load(argv[1])))
    (PACKAGE / "_sync_client.py").write_text(unasync((PACKAGE / "_async_client.py").read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
