// A list query comes from any client: its parameters (namespace, state, queue, labelSelector,
// limit, continue) are parsed, bounded and applied to a cached list a slice at a time. The input
// is the query string of a list request, asked of a namespaced list and of a computed page; the
// answer is a page (valid JSON, at most `limit` items) or a short 400, never a crash.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/api_router.hpp"
#include "api/list_query.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"

namespace {

sextant::daemon_state& cluster() {
  static sextant::fixed_clock clock({});
  static sextant::daemon_state* state = [] {
    auto* made = new sextant::daemon_state(sextant::all_sections(), clock);
    std::string yaml;
    for (int n = 0; n < 40; ++n) {
      yaml += "apiVersion: v1\nkind: Pod\nmetadata: {name: p" + std::to_string(n) + ", namespace: ns" +
              std::to_string(n % 4) + ", uid: u" + std::to_string(n) + ", labels: {app: a" + std::to_string(n % 3) +
              ", tier: t" + std::to_string(n % 2) + "}}\nstatus: {phase: " + (n % 2 ? "Running" : "Pending") +
              "}\n---\n";
    }
    yaml +=
        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s1, uid: s1}\nspec: {driver: d, "
        "nodeName: n1, pool: {name: p, generation: 1, resourceSliceCount: 1}, devices: [{name: g0}, {name: g1}, "
        "{name: g2}]}\n";
    sextant::snapshot_loader loader(made->store, made->served, made->profiles, clock.now());
    sextant::snapshot_report report;
    loader.load_text("cluster.yaml", yaml, false, report);
    made->settle_snapshot_lists();
    return made;
  }();
  return *state;
}

void check(bool ok, const char* what, const std::string& input) {
  if (!ok) {
    std::fprintf(stderr, "%s for query \"%s\"\n", what, input.c_str());
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sextant::daemon_state& state = cluster();
  const std::string query(reinterpret_cast<const char*>(data), size);
  for (const char* list : {"/api/v1/core/pods", "/api/v1/dra/devices"}) {
    sextant::api_router router(state);
    sextant::api_response response = router.handle({"GET", std::string(list) + "?" + query, "", ""});
    const std::string_view body = response.bytes();
    if (response.status == 200) {
      sextant::json page = sextant::json::parse(body, nullptr, false);
      check(!page.is_discarded() && page.contains("items"), "a page that is not JSON", query);
      const sextant::parsed_target target = sextant::parse_target(std::string(list) + "?" + query);
      if (auto limit = target.query.find("limit"); limit != target.query.end()) {
        check(page["items"].size() <= std::stoul(limit->second), "a page longer than its limit", query);
      }
    } else {
      // A refusal says why in a few words: it never echoes a long value back whole.
      check(body.size() < 2048, "a long error", query);
    }
  }
  // The selector parser on its own: what it accepts is bounded.
  std::string error;
  if (auto terms = sextant::parse_label_selector(query, error)) {
    check(terms->size() <= sextant::request_limits{}.max_selector_terms, "too many terms accepted", query);
    for (const sextant::label_term& term : *terms) {
      check(term.key.size() <= 317 && term.value.size() <= 63, "an overlong term accepted", query);
    }
  }
  return 0;
}
