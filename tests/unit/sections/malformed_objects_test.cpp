// Every interpreter of every registered section reads objects with wrong-typed and missing
// fields without throwing: a view of what can be read (and a note), never an exception.
//
// The objects are the demo cluster's, each mutated one field at a time: every member and
// element removed, and replaced by each JSON type it is not. Each mutation runs the object's
// own interpreters. Once per field of a kind (in one of the ways, a different one from field to
// field), the views of every object that may read it run too: a Cluster Queue's waiting list
// reads Workloads, a Node's devices read Resource Slices.
#include <algorithm>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "snapshot/snapshot_loader.hpp"
#include "support/demo_daemon.hpp"
#include "support/every_interpreter.hpp"

using namespace sextant;
using sextant::testing::demo_daemon;

namespace {

// What a field is replaced by; only the values of another type than the field's are used.
const std::vector<json>& wrong_values() {
  static const std::vector<json> values = {nullptr,           false, 7, 2.5, "x", json::array(), json::object(),
                                           json::array({"x"})};
  return values;
}

bool same_type(const json& a, const json& b) {
  return a.type() == b.type() || (a.is_number_integer() && b.is_number_integer());
}

// The object's identity: an object without it is not loaded at all (the loader reports it).
bool is_identity(const std::string& pointer) {
  return pointer == "/apiVersion" || pointer == "/kind" || pointer == "/metadata" || pointer == "/metadata/name" ||
         pointer == "/metadata/namespace";
}

// "/status/conditions/0/type" -> "/status/conditions/[]/type": one field of every element.
std::string generic(const json::json_pointer& pointer) {
  std::string out;
  json::json_pointer rest = pointer;
  std::vector<std::string> tokens;
  while (!rest.empty()) {
    tokens.push_back(rest.back());
    rest.pop_back();
  }
  for (auto it = tokens.rbegin(); it != tokens.rend(); ++it) {
    const bool index = !it->empty() && it->find_first_not_of("0123456789") == std::string::npos;
    out += "/" + (index ? std::string("[]") : *it);
  }
  return out;
}

// The kinds whose views may read objects of `type`: those of the section that shows it and of
// every section that extends it or has a rule on it, and the kinds those sections extend.
std::set<kind_key> readers_of(const section_catalog& catalog, const kind_key& type) {
  std::set<kind_key> out{type};
  for (const section& s : catalog.sections()) {
    bool reads =
        std::any_of(s.resources.begin(), s.resources.end(), [&](const resource_def& r) { return r.type == type; }) ||
        std::any_of(s.extensions.begin(), s.extensions.end(),
                    [&](const details_extension& e) { return e.type == type; }) ||
        std::any_of(s.rules.begin(), s.rules.end(), [&](const problem_rule& r) { return r.type == type; });
    if (!reads) {
      continue;
    }
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty()) {
        out.insert(r.type);
      }
    }
    for (const details_extension& extension : s.extensions) {
      out.insert(extension.type);
    }
  }
  return out;
}

// A number of a text that does not change from run to run.
std::size_t stable_hash(const std::string& text) {
  std::size_t out = 0;
  for (char c : text) {
    out = out * 31 + static_cast<unsigned char>(c);
  }
  return out;
}

struct mutation {
  json::json_pointer at;
  std::optional<json> value;  // nullopt: removed
  std::string text() const { return at.to_string() + (value ? " = " + value->dump() : " removed"); }
};

void mutations_of(const json& node, const json::json_pointer& at, std::vector<mutation>& out) {
  if (!at.empty() && !is_identity(at.to_string())) {
    out.push_back({at, std::nullopt});
    for (const json& wrong : wrong_values()) {
      if (!same_type(node, wrong)) {
        out.push_back({at, wrong});
      }
    }
  }
  if (node.is_object()) {
    for (const auto& [key, member] : node.items()) {
      mutations_of(member, at / key, out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      mutations_of(node[i], at / i, out);
    }
  }
}

json apply(json object, const mutation& change) {
  if (change.value) {
    object[change.at] = *change.value;
    return object;
  }
  json& parent = object[change.at.parent_pointer()];
  if (parent.is_object()) {
    parent.erase(change.at.back());
  } else {
    parent.erase(static_cast<std::size_t>(std::stoul(change.at.back())));
  }
  return object;
}

// Failures, one line per (interpreter, field, way), with the first object it was seen on.
struct failures {
  std::map<std::string, std::string> seen;

  testing::failure_sink sink(const std::string& kind, const mutation& change, const std::string& object) {
    return [this, kind, change, object](const testing::interpreter_failure& failure) {
      seen.emplace(failure.section + "/" + failure.resource + " " + failure.interpreter + " throws on " + kind + " " +
                       generic(change.at) + (change.value ? " = " + change.value->dump() : " removed") + ": " +
                       failure.error,
                   object);
    };
  }
};

}  // namespace

TEST_CASE("every interpreter of every section reads wrong-typed and missing fields without throwing",
          "[sections][malformed]") {
  demo_daemon demo;
  const section_catalog& catalog = demo.state.catalog;
  failures found;
  std::size_t mutated = 0;
  std::set<std::string> kinds_mutated;
  // Each way of breaking a field of a kind is tried on two objects that have it.
  std::map<std::string, int> tried;
  // Once per field of a kind, the views of every object that may read it run too.
  std::set<std::string> fields_read_around;

  // The unbroken demo reads cleanly first: a failure below is the mutation's.
  testing::run_every_interpreter(catalog, demo.state.store, demo.state.context(),
                                 found.sink("(none)", {json::json_pointer(), std::nullopt}, "the demo cluster"));
  REQUIRE(found.seen.empty());

  for (const kind_key& type : demo.state.store.kinds()) {
    const std::set<kind_key> readers = readers_of(catalog, type);
    for (const object_ptr& original : demo.state.store.list(type)) {
      const json body = original->body();
      std::vector<mutation> changes;
      mutations_of(body, json::json_pointer(), changes);
      for (std::size_t i = 0; i < changes.size(); ++i) {
        const mutation& change = changes[i];
        const std::string field = type.to_string() + " " + generic(change.at);
        const std::string way = field + " " + (change.value ? std::string(change.value->type_name()) : "removed");
        if (++tried[way] > 2) {
          continue;
        }
        // The ways of breaking one field are next to each other: pick one of them by the field.
        std::size_t first = i;
        while (first > 0 && changes[first - 1].at == change.at) {
          --first;
        }
        std::size_t ways = first;
        while (ways < changes.size() && changes[ways].at == change.at) {
          ++ways;
        }
        const bool read_around =
            i - first == stable_hash(field) % (ways - first) && !fields_read_around.contains(field);
        snapshot_loader loader(demo.state.store, demo.state.served, demo.state.profiles, demo.clock.now());
        snapshot_report report;
        loader.load_text("mutated.json", apply(body, change).dump(), true, report);
        object_ptr broken = demo.state.store.get(type, original->namespace_, original->name);
        if (!report.errors.empty() || broken == original) {
          demo.state.store.upsert(original);
          continue;  // not loaded: the loader said why, and no interpreter sees it
        }
        ++mutated;
        kinds_mutated.insert(type.to_string());
        const std::string where = original->key() + " with " + change.text();
        view_context context = demo.state.context();
        testing::failure_sink sink = found.sink(type.to_string(), change, where);
        if (read_around) {
          fields_read_around.insert(field);
          for (const kind_key& reader : readers) {
            for (const object_ptr& object : demo.state.store.list(reader)) {
              testing::run_interpreters_on(catalog, *object, context, sink);
            }
          }
          testing::run_computed_lists(catalog, context, sink);
        } else {
          testing::run_interpreters_on(catalog, *broken, context, sink);
        }
        demo.state.store.upsert(original);
      }
    }
  }
  INFO(mutated << " mutated objects of " << kinds_mutated.size() << " kinds");
  CHECK(mutated > 1000);
  // Every registered kind of the demo cluster was broken.
  for (const section& s : catalog.sections()) {
    for (const resource_def& r : s.resources) {
      if (!r.type.kind.empty() && demo.state.store.count(r.type) > 0) {
        CHECK(kinds_mutated.contains(r.type.to_string()));
      }
    }
  }
  for (const auto& [line, object] : found.seen) {
    FAIL_CHECK(line << "   (first on " << object << ")");
  }
}
