// Objects in a cluster are outside input: every view of every registered section must render
// whatever the objects hold. The input is JSON: an object or a list of objects. Each becomes an
// object of a registered kind (the kind it names when that is one, else one chosen by its
// position), is loaded as a snapshot loads it, and then every interpreter runs on the store
// unguarded (a throw is a finding) and every list, details answer and route is asked of the router.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "api/api_router.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/every_interpreter.hpp"

namespace {

struct registered_kind {
  sextant::kind_key type;
  std::string api_version;
  bool namespaced = true;
};

const std::vector<sextant::section>& sections() {
  static const std::vector<sextant::section> all = sextant::all_sections();
  return all;
}

const std::vector<registered_kind>& kinds() {
  static const std::vector<registered_kind> all = [] {
    std::vector<registered_kind> out;
    for (const sextant::section& s : sections()) {
      const std::string version = s.version_preference.empty() ? "v1" : s.version_preference.front();
      for (const sextant::resource_def& r : s.resources) {
        if (!r.type.kind.empty()) {
          out.push_back({r.type, r.type.group.empty() ? version : r.type.group + "/" + version, r.namespaced});
        }
      }
    }
    return out;
  }();
  return all;
}

// Gives an object a registered kind and the identity the loader needs; the rest stays as fuzzed.
void make_registered(sextant::json& object, std::size_t position) {
  const registered_kind* chosen = &kinds()[position % kinds().size()];
  if (const auto* named = sextant::find(object, {"kind"}); named != nullptr && named->is_string()) {
    for (const registered_kind& candidate : kinds()) {
      if (candidate.type.kind == named->get<std::string>()) {
        chosen = &candidate;
      }
    }
  }
  object["apiVersion"] = chosen->api_version;
  object["kind"] = chosen->type.kind;
  if (!object["metadata"].is_object()) {
    object["metadata"] = sextant::json::object();
  }
  sextant::json& metadata = object["metadata"];
  if (!metadata["name"].is_string() || metadata["name"].get<std::string>().empty()) {
    metadata["name"] = "fuzz-" + std::to_string(position);
  }
  if (chosen->namespaced && (!metadata["namespace"].is_string() || metadata["namespace"].get<std::string>().empty())) {
    metadata["namespace"] = "fuzz";
  }
}

[[noreturn]] void report(const sextant::testing::interpreter_failure& failure) {
  std::fprintf(stderr, "%s/%s %s threw: %s\n", failure.section.c_str(), failure.resource.c_str(),
               failure.interpreter.c_str(), failure.error.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sextant::json input = sextant::json::parse(data, data + size, nullptr, false);
  if (input.is_discarded()) {
    return 0;
  }
  sextant::json items = input.is_array() ? input : sextant::json::array({input});
  sextant::json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", sextant::json::array()}};
  for (std::size_t i = 0; i < items.size() && i < 64; ++i) {
    if (items[i].is_object()) {
      make_registered(items[i], i);
      list["items"].push_back(std::move(items[i]));
    }
  }

  static sextant::fixed_clock clock(sextant::parse_rfc3339("2026-11-29T12:00:00Z").value());
  sextant::daemon_state state(sections(), clock);
  sextant::snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
  sextant::snapshot_report loaded;
  loader.load_text("fuzz.json", list.dump(), true, loaded);
  state.settle_snapshot_lists();
  for (const sextant::problem_category& category : state.problems.categories()) {
    state.problems.set_enabled(category.id, true);
  }
  state.evaluate_problems();

  sextant::testing::run_every_interpreter(state.catalog, state.store, state.context(), report);

  // The answers as a client gets them, through the guarded views and the router.
  sextant::api_router router(state);
  for (const sextant::section& s : state.catalog.sections()) {
    for (const sextant::resource_def& r : s.resources) {
      (void)router.handle({"GET", "/api/v1/" + s.id + "/" + r.id, "", ""});
      if (r.type.kind.empty()) {
        continue;
      }
      for (const sextant::object_ptr& object : state.store.list(r.type)) {
        auto path = state.catalog.path_for(r.type, object->namespace_, object->name, state.served);
        if (path) {
          (void)router.handle({"GET", *path, "", ""});
        }
      }
    }
  }
  (void)router.handle({"GET", "/api/v1/problems", "", ""});
  return 0;
}
