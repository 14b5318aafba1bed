#!/usr/bin/env python3
"""Writes tests/fuzz/corpus/section_views/ from the demo cluster: the seeds of fuzz_section_views.

One seed per demo file and one per section folder, each a JSON list of its objects, so that the
fuzzer starts from objects that read as real ones and from sets whose views read each other
(claims with their pods and slices, Workloads with their queues). Rerun after changing the demo.
"""
import glob
import json
import os

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEMO = os.path.join(ROOT, "examples/demo-cluster")
OUT = os.path.join(ROOT, "tests/fuzz/corpus/section_views")


class TextTimes(yaml.SafeLoader):
    """Keeps timestamps as the text they are in the files, as the daemon reads them."""


TextTimes.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def objects(path):
    with open(path) as f:
        return [document for document in yaml.load_all(f, Loader=TextTimes) if document]


def write(name, items):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(json.dumps(items, separators=(",", ":")))


def main():
    os.makedirs(OUT, exist_ok=True)
    for folder in sorted(glob.glob(os.path.join(DEMO, "*/"))):
        section = os.path.basename(os.path.dirname(folder))
        every = []
        for path in sorted(glob.glob(os.path.join(folder, "*.yaml"))):
            found = objects(path)
            every += found
            write(section + "-" + os.path.basename(path)[: -len(".yaml")] + ".json", found)
        write(section + ".json", every)


if __name__ == "__main__":
    main()
