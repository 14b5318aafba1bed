#!/usr/bin/env python3
"""Writes api/openapi.yaml from api/openapi-base.yaml and each section's openapi-fragment.yaml.

Each operator documents its own views beside its code (lib/sections/<id>/openapi-fragment.yaml);
this joins them into the one document front-ends read. `--check` fails when api/openapi.yaml is
not what the sources give (a ctest runs it), so the two cannot drift.

Beside joining, it writes what would otherwise be repeated by hand, and drift:
- each resource's own paths, from `x-sextant-resources` (the base's for core, each fragment's
  for its section): `/api/v1/<section>/<resource>` (the list) and the details path, whose
  schemas join Summary/Details with the schemas that name the resource in x-sextant-summary,
  x-sextant-details and (computed pages) x-sextant-list, as components `<section>.<resource>.*`;
- the answers every route can give (400, 413, 431, 503, and 401 where a token is asked for), in
  every operation that does not declare them itself;
- the Hidden alternative of every joined entry: a schema marked `x-sextant-joined: true` (an
  object holding another object's path, which a caller who may not read that object gets as
  {"hidden": why}), every reference to it, and every object made of one (allOf).
A method a path does not declare answers 405 with `Allow` (components.responses.MethodNotAllowed,
info.description); it is not written as an operation, since a documented method is one a client
may use (Schemathesis' unsupported_method check asks each path's other methods for that 405).
A source mapping with a null value is refused: it is what `{description: a, b}` makes of the
text after an unquoted comma.
"""
import copy
import glob
import os
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = "#/components/schemas/"
RESPONSES = "#/components/responses/"
SCOPES = ("namespaced", "cluster", "computed")
# Every route can answer these: the HTTP server's own refusals, and the busy server's 503.
EVERY_ROUTE = {"400": "BadRequest", "413": "PayloadTooLarge", "431": "HeadersTooLarge", "503": "Unavailable"}
METHODS = ("get", "put", "post", "delete", "patch")


def refuse_null_values(node, where):
    if isinstance(node, dict):
        for key, value in node.items():
            if key is None or isinstance(key, bool):
                raise SystemExit(f"merge-openapi: {where}: a key YAML reads as {key!r} (Null, True, No, …): quote it")
            if value is None:
                raise SystemExit(f"merge-openapi: {where}: `{key}` has no value; a flow mapping with an "
                                 "unquoted comma? Quote the text.")
            refuse_null_values(value, f"{where}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            refuse_null_values(value, f"{where}[{index}]")


def merge(into, extra, where):
    for key, value in extra.items():
        if key not in into:
            into[key] = value
        elif isinstance(into[key], dict) and isinstance(value, dict):
            merge(into[key], value, f"{where}.{key}")
        else:
            raise SystemExit(f"merge-openapi: {where}.{key} is defined twice")


def camel(*words):
    return "".join(part[:1].upper() + part[1:] for word in words for part in word.split("-"))


def naming(document, role, resource):
    """The names of the schemas whose x-sextant-<role> lists `resource`, in document order."""
    return [name for name, schema in document["components"]["schemas"].items()
            if resource in schema.get(f"x-sextant-{role}", [])]


def declares_property(document, names, member):
    return any(member in document["components"]["schemas"][name].get("properties", {}) for name in names)


def resource_paths(document, section, resource, scope):
    """The list and details paths of one resource, and the component schemas they name."""
    key = f"{section}/{resource}"
    prefix = f"{section}.{resource}"
    schemas = document["components"]["schemas"]
    summaries = naming(document, "summary", key)
    refs = lambda names: [{"$ref": SCHEMAS + name} for name in names]
    list_path = f"/api/v1/{section}/{resource}"
    parameters = [{"$ref": "#/components/parameters/namespace"}] if scope == "namespaced" else []
    parameters += [{"$ref": "#/components/parameters/state"}]
    if declares_property(document, summaries, "localQueue"):
        parameters += [{"$ref": "#/components/parameters/queue"}]
    parameters += [{"$ref": f"#/components/parameters/{name}"} for name in ("labelSelector", "limit", "continue")]
    answers = {"304": {"$ref": RESPONSES + "NotModified"}, "403": {"$ref": RESPONSES + "Forbidden"},
               "404": {"$ref": RESPONSES + "NotFound"}}

    if scope == "computed":
        lists = naming(document, "list", key)
        if not lists:
            raise SystemExit(f"merge-openapi: {key} is a computed page, but no schema says x-sextant-list: [{key}]")
        schemas[f"{prefix}.List"] = {"description": f"GET {list_path}", "allOf": refs(lists)}
    else:
        schemas[f"{prefix}.Summary"] = {
            "description": f"An item of {list_path}: Summary and the {key} summary fields.",
            "allOf": refs(["Summary"] + summaries)}
        schemas[f"{prefix}.List"] = {
            "description": f"GET {list_path}",
            "allOf": [{"$ref": SCHEMAS + "ListMeta"},
                      {"type": "object", "required": ["items"],
                       "properties": {"items": {"type": "array", "items": {"$ref": SCHEMAS + f"{prefix}.Summary"}}}}]}
        schemas[f"{prefix}.Details"] = {
            "description": f"Details of a {key} object: its summary plus its own blocks.",
            "allOf": refs(["Details"] + summaries + naming(document, "details", key))}

    paths = {list_path: {"get": {
        "operationId": "list" + camel(section, resource),
        "summary": f"The {resource} of {section}" + (" (a computed page)" if scope == "computed" else ""),
        "parameters": parameters,
        "responses": {"200": {"description": "the list", "content": {
            "application/json": {"schema": {"$ref": SCHEMAS + f"{prefix}.List"}}}}, **answers}}}}
    if scope != "computed":
        object_path = list_path + ("/{namespace}/{name}" if scope == "namespaced" else "/{name}")
        names = [{"$ref": "#/components/parameters/pathNamespace"}] if scope == "namespaced" else []
        names.append({"$ref": "#/components/parameters/pathName"})
        paths[object_path] = {"get": {
            "operationId": "get" + camel(section, resource),
            "summary": f"Details of one of the {resource} of {section}",
            "parameters": names,
            "responses": {"200": {"description": "details", "content": {
                "application/json": {"schema": {"$ref": SCHEMAS + f"{prefix}.Details"}}}}, **answers}}}
    return paths


def add_resource_paths(document):
    for section, resources in document.get("x-sextant-resources", {}).items():
        for resource, scope in resources.items():
            if scope not in SCOPES:
                raise SystemExit(f"merge-openapi: x-sextant-resources {section}/{resource}: {scope!r} is not one "
                                 f"of {', '.join(SCOPES)}")
            for path, item in resource_paths(document, section, resource, scope).items():
                if path in document["paths"]:
                    raise SystemExit(f"merge-openapi: {path} is written from x-sextant-resources and by hand")
                document["paths"][path] = item


def add_every_route_answers(document):
    asks_token = bool(document.get("security")) and any(document["security"])
    for path, item in document["paths"].items():
        for method in (m for m in METHODS if m in item):
            operation = item[method]
            responses = operation["responses"]
            extra = dict(EVERY_ROUTE)
            security = operation.get("security", document.get("security", []))
            if asks_token and any(security):
                extra["401"] = "Unauthorized"
            for code, name in extra.items():
                responses.setdefault(code, {"$ref": RESPONSES + name})
            operation["responses"] = dict(sorted(responses.items()))


def joined_schemas(schemas):
    """Component schemas that are joined entries: marked, or made of one (allOf)."""
    joined = {name for name, schema in schemas.items() if schema.pop("x-sextant-joined", False)}
    while True:
        more = {name for name, schema in schemas.items() if name not in joined and any(
            part.get("$ref", "").removeprefix(SCHEMAS) in joined for part in schema.get("allOf", []))}
        if not more:
            return joined
        joined |= more


def hideable(node, joined):
    """The node with a Hidden alternative wherever it holds a joined entry, or None if it holds none."""
    def is_joined(schema):
        ref = schema.get("$ref", "").removeprefix(SCHEMAS) if isinstance(schema, dict) else ""
        return ref in joined or (isinstance(schema, dict) and any(
            isinstance(part, dict) and part.get("$ref", "").removeprefix(SCHEMAS) in joined
            for part in schema.get("allOf", [])))

    def walk(n, composed=False):
        if isinstance(n, list):
            return [walk(item, composed) for item in n]
        if not isinstance(n, dict):
            return n
        marked = n.pop("x-sextant-joined", False)
        out = {}
        for key, value in n.items():
            if key == "allOf":
                out[key] = [walk(part, composed=True) for part in value]
            elif key == "oneOf":
                alternatives = [walk(part, composed=True) for part in value]
                if any(is_joined(part) for part in value):
                    alternatives.append({"$ref": SCHEMAS + "Hidden"})
                out[key] = alternatives
            else:
                out[key] = walk(value)
        if marked or (not composed and is_joined(n)):
            description = out.pop("description", None)
            wrapped = {"oneOf": [out, {"$ref": SCHEMAS + "Hidden"}]}
            if description:
                wrapped["description"] = description
            return wrapped
        return out

    return walk(node)


def add_hidden_alternatives(document):
    """Where a caller may not read an object a view joins, the entry is {"hidden": why}: say so."""
    schemas = document["components"]["schemas"]
    joined = joined_schemas(schemas)
    for name in list(schemas):
        schema = schemas[name]
        # A joined component is itself the entry: its references get the alternative, not it.
        if name in joined:
            schemas[name] = {k: (hideable(v, joined) if k not in ("allOf",) else
                                 [hideable(part, set()) if part.get("$ref") else hideable(part, joined)
                                  for part in v]) for k, v in schema.items()}
        else:
            schemas[name] = hideable(schema, joined)


def build():
    with open(os.path.join(ROOT, "api/openapi-base.yaml")) as f:
        document = yaml.safe_load(f)
    refuse_null_values(document, "api/openapi-base.yaml")
    for fragment in sorted(glob.glob(os.path.join(ROOT, "lib/sections/*/openapi-fragment.yaml"))):
        where = os.path.relpath(fragment, ROOT)
        with open(fragment) as f:
            extra = yaml.safe_load(f) or {}
        refuse_null_values(extra, where)
        merge(document, {k: v for k, v in extra.items() if k in ("paths", "components", "x-sextant-resources")},
              where)
    add_hidden_alternatives(document)
    add_resource_paths(document)
    add_every_route_answers(document)
    header = ("# Generated by scripts/merge-openapi.py from api/openapi-base.yaml and\n"
              "# lib/sections/*/openapi-fragment.yaml. Edit those, then run the script.\n")
    # No YAML anchors: a generator reading the document should not have to resolve them.
    dumper = type("NoAliases", (yaml.SafeDumper,), {"ignore_aliases": lambda self, data: True})
    return header + yaml.dump(copy.deepcopy(document), Dumper=dumper, sort_keys=False, width=110, allow_unicode=True)


def main():
    text = build()
    target = os.path.join(ROOT, "api/openapi.yaml")
    if "--check" in sys.argv:
        current = open(target).read() if os.path.exists(target) else ""
        if current != text:
            raise SystemExit("api/openapi.yaml is out of date: run scripts/merge-openapi.py")
        return
    with open(target, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
