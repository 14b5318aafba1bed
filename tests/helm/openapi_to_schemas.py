#!/usr/bin/env python3
"""Writes kubeconform's JSON schemas from an API server's OpenAPI v2 document.

Usage: openapi_to_schemas.py SWAGGER_JSON OUT_DIR

One file per kind and version, OUT_DIR/<group>/<version>/<kind>.json in lower case (the core
group named by its version, as kubeconform names it), each the kind's definition with every
definition it reaches. kubeconform reads them with
  -schema-location 'OUT_DIR/{{ .Group }}/{{ .ResourceAPIVersion }}/{{ .ResourceKind }}.json'
The document comes from the test cluster's own kube-apiserver (tests/apiserver), with the CRDs
it was started with, so built-in kinds and custom ones are checked against the same server
version the integration tests run. Made strict as kubeconform's -strict expects: an object
with properties takes no others (unless Kubernetes says it keeps unknown fields), and the
int-or-string and quantity types take both their forms.
"""
import json
import os
import sys

INT_OR_STRING = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
QUANTITY = {"oneOf": [{"type": "string"}, {"type": "number"}]}


def strict(node):
    if isinstance(node, list):
        return [strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    if node.get("x-kubernetes-int-or-string") or node.get("format") == "int-or-string":
        return dict(INT_OR_STRING, description=node.get("description", ""))
    out = {k: strict(v) for k, v in node.items()}
    if ("properties" in out and "additionalProperties" not in out
            and not out.get("x-kubernetes-preserve-unknown-fields")):
        out["additionalProperties"] = False
    return out


def reached(definitions, name, seen):
    if name in seen or name not in definitions:
        return
    seen.add(name)
    stack = [definitions[name]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/definitions/"):
                reached(definitions, ref[len("#/definitions/"):], seen)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        definitions = json.load(f)["definitions"]
    definitions = {name: strict(schema) for name, schema in definitions.items()}
    definitions["io.k8s.apimachinery.pkg.util.intstr.IntOrString"] = INT_OR_STRING
    definitions["io.k8s.apimachinery.pkg.api.resource.Quantity"] = QUANTITY
    written = 0
    for name, schema in definitions.items():
        for gvk in schema.get("x-kubernetes-group-version-kind", []):
            needed = set()
            reached(definitions, name, needed)
            document = {"$ref": f"#/definitions/{name}", "definitions": {n: definitions[n] for n in sorted(needed)}}
            # kubeconform names the core group by its version ("v1": {{ .Group }} of apiVersion v1).
            folder = os.path.join(sys.argv[2], (gvk["group"] or gvk["version"]).lower(), gvk["version"].lower())
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, gvk["kind"].lower() + ".json"), "w") as f:
                json.dump(document, f)
            written += 1
    print(f"openapi_to_schemas: {written} kinds")


if __name__ == "__main__":
    main()
