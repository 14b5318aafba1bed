#!/usr/bin/env python3
"""Checks that the Helm chart, with no value set, renders exactly what `kubectl apply -k deploy/`
creates, but the Namespace, which Helm makes itself (helm install --create-namespace).

Usage: compare_with_kustomize.py HELM

deploy/kustomization.yaml is a plain list of files (no patches, generators or transformers:
this check refuses one that grows any), so its objects are those files' documents. The chart is
rendered as the README installs it: release sextantd, namespace sextant. Objects are compared
whole, as parsed YAML: a field, label or rule that differs is named.
"""
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEPLOY = os.path.join(ROOT, "deploy")


def key(obj):
    meta = obj.get("metadata", {})
    where = f"{meta['namespace']}/" if meta.get("namespace") else ""
    return f"{obj.get('kind')} {where}{meta.get('name')}"


def documents(text, where):
    out = {}
    for obj in yaml.safe_load_all(text):
        if obj is None:
            continue
        if key(obj) in out:
            sys.exit(f"compare_with_kustomize: {where} has {key(obj)} twice")
        out[key(obj)] = obj
    return out


def kustomize_objects():
    with open(os.path.join(DEPLOY, "kustomization.yaml")) as f:
        kustomization = yaml.safe_load(f)
    extra = set(kustomization) - {"apiVersion", "kind", "resources"}
    if extra:
        sys.exit(f"compare_with_kustomize: deploy/kustomization.yaml uses {sorted(extra)}: "
                 "render it with kustomize here before comparing")
    objects = {}
    for resource in kustomization["resources"]:
        with open(os.path.join(DEPLOY, resource)) as f:
            objects.update(documents(f.read(), resource))
    return objects


def differences(a, b, where=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                out.append(f"{where}.{k}: only in the chart")
            elif k not in b:
                out.append(f"{where}.{k}: only in deploy/")
            else:
                out += differences(a[k], b[k], f"{where}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{where}[{i}]")]
    return [] if a == b else [f"{where}: deploy/ has {a!r}, the chart {b!r}"]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    rendered = subprocess.run([sys.argv[1], "template", "sextantd", os.path.join(DEPLOY, "helm", "sextantd"),
                               "--namespace", "sextant"], check=True, capture_output=True, text=True).stdout
    chart = documents(rendered, "helm template")
    kustomize = kustomize_objects()
    namespaces = [k for k, o in kustomize.items() if o["kind"] == "Namespace"]
    for k in namespaces:
        del kustomize[k]
    problems = [f"{k}: only in deploy/" for k in sorted(set(kustomize) - set(chart))]
    problems += [f"{k}: only in the chart" for k in sorted(set(chart) - set(kustomize))]
    for k in sorted(set(kustomize) & set(chart)):
        problems += [f"{k} {d}" for d in differences(kustomize[k], chart[k])]
    for line in problems:
        print(line)
    if problems:
        sys.exit(1)
    print(f"the chart renders the {len(chart)} objects of deploy/ (all but {', '.join(namespaces)}) unchanged")


if __name__ == "__main__":
    main()
