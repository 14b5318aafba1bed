// Reads every resource of the demo cluster through the types openapi-typescript generates from
// api/openapi.yaml (./api.d.ts), as a front-end would: each list, then each object's details.
// tsc type-checks it against the document; check.sh then runs it against the demo daemon, and
// it fails if a resource that /api/v1/sections lists is not among those read here.
import type { components, paths } from "./api";

// Node's own: no @types/node is installed for two names.
declare const process: { argv: string[]; exit(code: number): never };

type Schemas = components["schemas"];
// The JSON body of a path's 200 answer.
type Answer<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { "application/json": infer Body } } } };
}
  ? Body
  : never;

async function get<P extends keyof paths>(base: string, path: P, parameters: Record<string, string> = {}): Promise<Answer<P>> {
  const url = base + path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ""));
  const answer = await fetch(url);
  if (answer.status !== 200) {
    throw new Error(`GET ${url}: ${answer.status} ${await answer.text()}`);
  }
  return (await answer.json()) as Answer<P>;
}

// Every list path, each of which the document must declare (a typo or a resource the document
// lost is a compile error).
const lists = [
  "/api/v1/core/pods", "/api/v1/core/nodes", "/api/v1/core/jobs",
  "/api/v1/dra/resourceclaims", "/api/v1/dra/resourceclaimtemplates", "/api/v1/dra/deviceclasses",
  "/api/v1/dra/resourceslices", "/api/v1/dra/devices",
  "/api/v1/gpu-operator/clusterpolicies", "/api/v1/gpu-operator/nvidiadrivers", "/api/v1/gpu-operator/gpunodes",
  "/api/v1/kueue/clusterqueues", "/api/v1/kueue/localqueues", "/api/v1/kueue/resourceflavors",
  "/api/v1/kueue/workloads", "/api/v1/kueue/admissionchecks", "/api/v1/kueue/cohorts",
  "/api/v1/kueue/workloadpriorityclasses",
  "/api/v1/jobset/jobsets",
  "/api/v1/kuberay/rayclusters", "/api/v1/kuberay/rayjobs", "/api/v1/kuberay/rayservices",
  "/api/v1/kserve/inferenceservices", "/api/v1/kserve/servingruntimes", "/api/v1/kserve/clusterservingruntimes",
  "/api/v1/kserve/inferencegraphs", "/api/v1/kserve/trainedmodels",
] as const satisfies readonly (keyof paths)[];

// A link a front-end draws: greyed out when its object is known to be absent, and only "there is
// one" when the caller may not read it.
function describeLink(link: Schemas["Link"] | Schemas["Hidden"]): string {
  if ("hidden" in link) {
    return `hidden: ${link.hidden}`;
  }
  const there = link.exists === true ? "" : link.exists === false ? " (absent)" : " (cannot tell)";
  return `${link.rel} -> ${link.kind} ${link.namespace ?? ""}/${link.name}${there}`;
}

async function main(base: string): Promise<void> {
  const { sections } = await get(base, "/api/v1/sections");
  const served = sections.flatMap((s) => s.resources.map((r) => `/api/v1/${s.id}/${r.id}`));
  const missing = served.filter((path) => !(lists as readonly string[]).includes(path));
  if (missing.length > 0) {
    throw new Error(`resources the demo serves that this program does not read: ${missing.join(", ")}`);
  }

  let objects = 0;
  let links = 0;
  for (const path of lists) {
    const list = await get(base, path);
    if (list.incomplete) {
      throw new Error(`${path}: incomplete (${list.incompleteReason ?? "no reason"})`);
    }
    for (const item of list.items) {
      // A computed page's items are its own; every other item is a Summary with a details path.
      if (!("path" in item) || typeof item.path !== "string" || !("state" in item)) {
        continue;
      }
      const answer = await fetch(base + item.path);
      const details = (await answer.json()) as Schemas["Details"];
      if (details.name !== item.name || details.state.label !== item.state.label) {
        throw new Error(`${item.path}: the details do not carry the summary's name and state`);
      }
      links += details.links.map(describeLink).length;
      objects += 1;
    }
  }

  // Fields a front-end reads by their declared types: the same in the list and the details.
  const queues = await get(base, "/api/v1/kueue/clusterqueues");
  for (const queue of queues.items) {
    const cohort: string | null | undefined = queue.cohort;
    const details = await get(base, "/api/v1/kueue/clusterqueues/{name}", { name: queue.name });
    const sameCohort: string | null | undefined = details.cohort;
    const link = details.cohortLink;
    const linked = link != null && "name" in link ? link.name : null;
    if (sameCohort !== cohort || (cohort != null && linked !== cohort)) {
      throw new Error(`cluster queue ${queue.name}: cohort ${String(cohort)} reads differently in its details`);
    }
  }
  const workloads = await get(base, "/api/v1/kueue/workloads");
  for (const workload of workloads.items) {
    const priority: number | null | undefined = workload.priority;
    const details = await get(base, "/api/v1/kueue/workloads/{namespace}/{name}", {
      namespace: workload.namespace ?? "",
      name: workload.name,
    });
    if (details.priority !== priority || (priority != null && details.priorityClass?.value !== priority)) {
      throw new Error(`workload ${workload.name}: priority ${String(priority)} reads differently in its details`);
    }
  }
  const devices = await get(base, "/api/v1/dra/devices");
  const held = devices.items.filter((d) => d.allocatedTo !== null && d.allocatedTo !== "cannot tell").length;

  console.log(
    `read ${lists.length} resources, ${objects} objects' details with ${links} links, ${devices.items.length} devices (${held} held)`,
  );
}

main(process.argv[2] ?? "http://127.0.0.1:8080").catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
