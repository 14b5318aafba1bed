// Measures ingest speed (MB/s of API-server JSON decoded into the cache) and memory per cached
// object, for the two heaviest kinds: Kueue Workloads (whole pod templates inside) and Pods.
//
// The lists are generated (seeded) in the shape perf-json.md measured: compact API-server JSON
// with managedFields, 1-3 pod sets with full templates. Run through bench/run.sh, which adds
// /usr/bin/time -v for peak RSS. Numbers are best of 5 in one process.
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "ingest/json_decoder.hpp"
#include "runtime/section_catalog.hpp"
#include "sections/registry.hpp"
#include "store/object_store.hpp"

namespace {

using sextant::json;

std::string managed_fields(std::mt19937& rng) {
  std::string out = "[";
  int entries = 2 + static_cast<int>(rng() % 3);
  for (int i = 0; i < entries; ++i) {
    out +=
        std::string(i ? "," : "") +
        R"({"manager":"kueue","operation":"Update","apiVersion":"v1","time":"2026-11-29T10:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"QuotaReserved\"}":{".":{},"f:lastTransitionTime":{},"f:message":{},"f:reason":{},"f:status":{},"f:type":{}}},"f:admission":{"f:clusterQueue":{},"f:podSetAssignments":{}}},"f:metadata":{"f:labels":{"f:kueue.x-k8s.io/job-uid":{}},"f:ownerReferences":{"k:{\"uid\":\"x\"}":{}}}}})";
  }
  return out + "]";
}

std::string container(int index, std::mt19937& rng) {
  std::string env;
  for (int e = 0; e < 8 + static_cast<int>(rng() % 8); ++e) {
    env += std::string(e ? "," : "") + R"({"name":"ENV_VAR_)" + std::to_string(e) +
           R"(","value":"some-configuration-value-)" + std::to_string(rng() % 100000) + R"("})";
  }
  return R"({"name":"worker-)" + std::to_string(index) +
         R"(","image":"registry.example.com/ml/trainer:v2.3.1","command":["python","-m","train","--config","/etc/config/train.yaml"],"env":[)" +
         env +
         R"(],"resources":{"requests":{"cpu":"8","memory":"64Gi","nvidia.com/gpu":"1"},"limits":{"cpu":"8","memory":"64Gi","nvidia.com/gpu":"1"}},"volumeMounts":[{"name":"data","mountPath":"/data"},{"name":"config","mountPath":"/etc/config"}]})";
}

std::string workload(int i, std::mt19937& rng) {
  std::string pod_sets;
  int sets = 1 + static_cast<int>(rng() % 3);
  for (int s = 0; s < sets; ++s) {
    std::string containers;
    int count = 1 + static_cast<int>(rng() % 2);
    for (int c = 0; c < count; ++c) {
      containers += std::string(c ? "," : "") + container(c, rng);
    }
    pod_sets +=
        std::string(s ? "," : "") + R"({"name":"set-)" + std::to_string(s) + R"(","count":)" +
        std::to_string(1 + rng() % 8) + R"(,"template":{"metadata":{"labels":{"app":"train"}},"spec":{"containers":[)" +
        containers +
        R"(],"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"dataset"}},{"name":"config","configMap":{"name":"train-config"}}],"restartPolicy":"Never","tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]}}})";
  }
  std::string name = "job-train-" + std::to_string(i);
  return R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload","metadata":{"name":")" + name +
         R"(","namespace":"team-)" + std::to_string(i % 20) + R"(","uid":"uid-)" + std::to_string(i) +
         R"(","resourceVersion":")" + std::to_string(100000 + i) +
         R"(","creationTimestamp":"2026-11-29T10:00:00Z","labels":{"kueue.x-k8s.io/job-uid":"job-uid-)" +
         std::to_string(i) + R"("},"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":")" + name +
         R"(","uid":"job-uid-)" + std::to_string(i) + R"(","controller":true}],"managedFields":)" +
         managed_fields(rng) +
         R"(},"spec":{"queueName":"team-queue","priority":100,"priorityClassName":"high","active":true,"podSets":[)" +
         pod_sets +
         R"(]},"status":{"conditions":[{"type":"QuotaReserved","status":"False","reason":"Pending","message":"couldn't assign flavors to pod set set-0: insufficient unused quota for nvidia.com/gpu in flavor a100, 4 more needed","lastTransitionTime":"2026-11-29T10:00:05Z","observedGeneration":1}],"resourceRequests":[{"name":"set-0","resources":{"cpu":"8","memory":"64Gi"}}]}})";
}

std::string pod(int i, std::mt19937& rng) {
  return R"({"metadata":{"name":"pod-)" + std::to_string(i) + R"(","namespace":"team-)" + std::to_string(i % 20) +
         R"(","uid":"pod-uid-)" + std::to_string(i) + R"(","resourceVersion":")" + std::to_string(200000 + i) +
         R"(","labels":{"app":"train","batch.kubernetes.io/job-name":"job-)" + std::to_string(i / 4) +
         R"("},"managedFields":)" + managed_fields(rng) + R"(},"spec":{"nodeName":"node-)" + std::to_string(i % 100) +
         R"(","containers":[)" + container(0, rng) +
         R"(],"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"dataset"}}],"restartPolicy":"Never"},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-29T10:01:00Z"},{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-11-29T10:00:00Z"}],"containerStatuses":[{"name":"worker-0","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-11-29T10:00:30Z"}},"image":"registry.example.com/ml/trainer:v2.3.1","imageID":"sha256:abcdef"}],"podIP":"10.0.3.4","hostIP":"192.0.2.10","startTime":"2026-11-29T10:00:00Z"}})";
}

std::string make_list(const char* api_version, const char* kind, int count, std::string (*item)(int, std::mt19937&)) {
  std::mt19937 rng(42);
  std::string out = std::string(R"({"apiVersion":")") + api_version + R"(","kind":")" + kind +
                    R"(","metadata":{"resourceVersion":"999999"},"items":[)";
  for (int i = 0; i < count; ++i) {
    out += (i ? "," : "") + item(i, rng);
  }
  return out + "]}";
}

std::size_t heap_in_use() {
  malloc_trim(0);
  return mallinfo2().uordblks;
}

void run(const char* label, const std::string& body, const char* api_version, const char* item_kind,
         const sextant::ingest_profiles& profiles) {
  sextant::json_decoder decoder(profiles);
  double best = 1e9;
  std::size_t items = 0;
  for (int round = 0; round < 5; ++round) {
    auto start = std::chrono::steady_clock::now();
    auto list = decoder.decode_list(body, api_version, item_kind);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!list.ok()) {
      std::printf("%s: decode failed: %s\n", label, list.error.c_str());
      return;
    }
    items = list.value->items.size();
    best = std::min(best, seconds);
  }
  // Memory: what the store holds per object once the list is decoded, cached and the body freed,
  // and where it goes: the packed bodies, the rest of each object (its record and identity
  // strings, as cached_object::held_bytes counts them), and the store's maps and indexes with the
  // allocator's own overhead (the remainder).
  std::size_t before = heap_in_use();
  std::size_t body_bytes = 0;
  std::size_t object_bytes = 0;
  {
    sextant::object_store store;
    std::vector<sextant::object_ptr> objects;
    {
      auto list = decoder.decode_list(body, api_version, item_kind);
      if (!list.ok() || list.value->items.empty()) {
        std::printf("%s: nothing decoded: %s\n", label, list.error.c_str());
        return;
      }
      for (sextant::packed_body& item : list.value->items) {
        body_bytes += item.size();
        objects.push_back(sextant::make_object(std::move(item), {}, nullptr));
        object_bytes += objects.back()->held_bytes();
      }
    }
    const std::size_t objects_alone = heap_in_use() - before;
    const sextant::kind_key type = objects.front()->type;
    store.replace_all(type, std::move(objects));
    std::size_t held = heap_in_use() - before;
    const auto per_item = [items](std::size_t bytes) {
      return static_cast<double>(bytes) / static_cast<double>(items);
    };
    std::printf(
        "%-10s %6zu items  %7.1f MB  decode %7.1f ms  %8.0f MB/s  %6.2f us/item  cached %7.0f bytes/object (%.3fx "
        "text): packed body %5.0f, rest of the object %4.0f, its allocations' overhead %4.0f, store maps and "
        "indexes %4.0f\n",
        label, items, static_cast<double>(body.size()) / 1e6, best * 1e3, static_cast<double>(body.size()) / 1e6 / best,
        best * 1e6 / static_cast<double>(items), per_item(held),
        static_cast<double>(held) / static_cast<double>(body.size()), per_item(body_bytes),
        per_item(object_bytes - body_bytes), per_item(objects_alone) - per_item(object_bytes),
        per_item(held - objects_alone));
  }
}

std::optional<std::string> read_file(const char* path) {
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    return std::nullopt;
  }
  std::string text;
  char buffer[1 << 16];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, file)) > 0;) {
    text.append(buffer, got);
  }
  std::fclose(file);
  return text;
}

}  // namespace

// With no arguments: the generated Workload and Pod lists below. With list files (such as
// bench/scale/gen_cluster.py writes: 36-character uids, owners, the server's managedFields):
// each file's kind, through the same decode and profiles as the daemon's.
int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const sextant::section_catalog catalog(sextant::all_sections());
  const sextant::ingest_profiles profiles = catalog.profiles();
  std::printf("sextantd ingest benchmark: simdjson On-Demand into the cache (best of 5)\n");
  if (argc > 1) {
    for (int i = 1; i < argc; ++i) {
      const std::optional<std::string> read = read_file(argv[i]);
      if (!read) {
        std::printf("%s: cannot be read\n", argv[i]);
        return 1;
      }
      const std::string& text = *read;
      sextant::json_decoder decoder(profiles);
      auto head = decoder.peek_head(text);
      if (!head || head->kind.size() <= 4 || !head->kind.ends_with("List")) {
        std::printf("%s: not a typed list\n", argv[i]);
        return 1;
      }
      const std::string item_kind = head->kind.substr(0, head->kind.size() - 4);
      run(item_kind.c_str(), text, head->api_version.c_str(), item_kind.c_str(), profiles);
    }
    return 0;
  }
  const sextant::ingest_profiles keep_all;  // no profile: everything but managedFields
  const std::string workloads = make_list("kueue.x-k8s.io/v1beta2", "WorkloadList", 5000, workload);
  const std::string pods = make_list("v1", "PodList", 10000, pod);
  run("Workload", workloads, "kueue.x-k8s.io/v1beta2", "Workload", profiles);
  run("Pod", pods, "v1", "Pod", profiles);
  run("Workload*", workloads, "kueue.x-k8s.io/v1beta2", "Workload", keep_all);
  run("Pod*", pods, "v1", "Pod", keep_all);
  std::printf("* = without the section's profile: whole objects less managedFields\n");
  return 0;
}
