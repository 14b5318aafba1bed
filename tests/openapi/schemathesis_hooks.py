"""Schemathesis hooks for tests/openapi/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).

`continue` is left out of what Schemathesis generates: it is an opaque token from a previous
page, so no schema can tell a valid one from a damaged one, and every token Schemathesis could
make is damaged (a 400 that its positive-data check would count as a valid request refused).
Paging with real tokens is tested by tests/unit/api/api_router_test.cpp and the list query tests.
"""
import schemathesis


@schemathesis.hook
def before_load_schema(context, raw_schema):
    raw_schema.get("components", {}).get("parameters", {}).pop("continue", None)
    for item in raw_schema.get("paths", {}).values():
        for operation in item.values():
            if isinstance(operation, dict) and "parameters" in operation:
                operation["parameters"] = [
                    p for p in operation["parameters"]
                    if p.get("$ref") != "#/components/parameters/continue" and p.get("name") != "continue"]
