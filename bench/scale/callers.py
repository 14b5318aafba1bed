#!/usr/bin/env python3
"""Makes the three callers of the auth and TLS benchmark (auth_tls.sh) in the test API server:
ServiceAccounts in namespace sextant-bench with RBAC as a cluster's users would have it, and a
token each from the TokenRequest API (one day), written to OUT_DIR/<caller>.token.

    callers.py CLUSTER_ENV OUT_DIR TEAM_NAMESPACE

  wide    get, list and watch on every resource of every group, cluster-wide
  team    Kueue's namespaced kinds in TEAM_NAMESPACE only, and the cluster's queues and flavors
  queues  Cluster Queues, Local Queues and flavors cluster-wide, nothing else

Idempotent: what exists already is kept (a 409 is not an error).
"""
import json
import ssl
import sys
import urllib.error
import urllib.request

NAMESPACE = "sextant-bench"
READ = ["get", "list", "watch"]
KUEUE = "kueue.x-k8s.io"


def main():
    env_file, out_dir, team = sys.argv[1], sys.argv[2], sys.argv[3]
    env = dict(line.strip().split("=", 1) for line in open(env_file) if "=" in line)
    server = env["SERVER"]
    token = open(env["ADMIN_TOKEN_FILE"]).read().strip()
    context = ssl.create_default_context(cafile=env["CA_CRT"])

    def post(path, body, ok_if_exists=True):
        request = urllib.request.Request(server + path, json.dumps(body).encode(), method="POST", headers={
            "Authorization": "Bearer " + token, "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, context=context, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:
            if error.code == 409 and ok_if_exists:
                return None
            raise SystemExit(f"callers.py: POST {path}: {error.code} {error.read()[:300]!r}")

    def grant(name, rules, namespace=None):
        role_kind = "Role" if namespace else "ClusterRole"
        scope = f"/namespaces/{namespace}" if namespace else ""
        rbac = "/apis/rbac.authorization.k8s.io/v1" + scope
        meta = {"name": f"sextant-bench-{name}"}
        if namespace:
            meta["namespace"] = namespace
        post(f"{rbac}/{role_kind.lower()}s", {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": role_kind,
                                             "metadata": meta, "rules": rules})
        post(f"{rbac}/{role_kind.lower()}bindings", {
            "apiVersion": "rbac.authorization.k8s.io/v1", "kind": role_kind + "Binding", "metadata": meta,
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": role_kind, "name": meta["name"]},
            "subjects": [{"kind": "ServiceAccount", "name": name.split("-")[0], "namespace": NAMESPACE}]})

    post("/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NAMESPACE}})
    for name in ("wide", "team", "queues"):
        post(f"/api/v1/namespaces/{NAMESPACE}/serviceaccounts",
             {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": name}})
    grant("wide", [{"apiGroups": ["*"], "resources": ["*"], "verbs": READ}])
    grant("team-kueue", [{"apiGroups": [KUEUE], "resources": ["workloads", "localqueues"], "verbs": READ}], team)
    grant("team-queues", [{"apiGroups": [KUEUE], "resources": ["clusterqueues", "resourceflavors"], "verbs": READ}])
    grant("queues", [{"apiGroups": [KUEUE], "resources": ["clusterqueues", "localqueues", "resourceflavors"],
                      "verbs": READ}])
    for name in ("wide", "team", "queues"):
        issued = post(f"/api/v1/namespaces/{NAMESPACE}/serviceaccounts/{name}/token",
                      {"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest",
                       "spec": {"expirationSeconds": 86400}}, ok_if_exists=False)
        with open(f"{out_dir}/{name}.token", "w") as out:
            out.write(issued["status"]["token"])


if __name__ == "__main__":
    main()
