// With --auth=kubernetes, no answer reads a kind its caller was not checked for. Every route the
// demo cluster answers is asked, as a caller allowed everything whose every question is noted;
// then the kinds the answer's render read (lib/store/view_reads.hpp, kept in its stamp) are each
// matched with a question about that kind, or with the view's own declaration that it reads the
// kind only to link to its objects (each such entry cut per caller) or to explain its own object
// (resource_def::joins, details_extension::joins, section_route::joins). A new route, resource
// or view that reads a kind without either fails here without this test being told about it.
#include <deque>

#include <catch2/catch.hpp>

#include "api/answer_key.hpp"
#include "api/view_cache.hpp"
#include "support/demo_daemon.hpp"

using namespace sextant;

namespace {

struct guarded_answer {
  int status = 0;
  json body;
  std::vector<access_check> asked;
};

guarded_answer ask_noting(testing::demo_daemon& demo, const std::string& target) {
  guarded_answer out;
  request_access access(caller{"auditor", "", {"system:authenticated"}, {}},
                        [&out](const caller&, const access_check& check) -> std::optional<bool> {
                          out.asked.push_back(check);
                          return true;
                        });
  api_router router(demo.state, &access);
  api_response response = router.handle({"GET", target, "", ""});
  REQUIRE(access.decided());
  out.status = response.status;
  out.body = response.body.empty() ? json(nullptr) : json::parse(response.body, nullptr, false);
  return out;
}

// What the answer to `target` read: a list's model, or the cached answer (details, routes).
std::optional<view_stamp> stamp_of(testing::demo_daemon& demo, const std::string& target) {
  parsed_target parsed = parse_target(target);
  if (parsed.segments.size() == 4 && parsed.query.empty()) {
    if (auto& slot = demo.state.views->model(target); slot.model) {
      return slot.model->stamp;
    }
  }
  if (const cached_answer* answer = demo.state.views->find(answer_key(answer_scope(parsed), false), demo.state)) {
    return answer->stamp;
  }
  return std::nullopt;
}

// The kinds the views answering `target` declare they only join (see above).
std::set<kind_key> declared_joins(const daemon_state& state, const std::string& target) {
  std::set<kind_key> out;
  const parsed_target parsed = parse_target(target);
  const auto& s = parsed.segments;
  if (s.size() < 4) {
    return out;
  }
  const section* owner = state.catalog.find_section(s[2]);
  if (owner == nullptr) {
    return out;
  }
  for (const section_route& route : owner->routes) {
    if (route.segment == s[3]) {
      out.insert(route.joins.begin(), route.joins.end());
      return out;
    }
  }
  resource_match match = state.catalog.find_resource(owner->id, s[3]);
  if (match.resource == nullptr) {
    return out;
  }
  out.insert(match.resource->joins.begin(), match.resource->joins.end());
  if (s.size() > 4) {  // details: the extensions of the kind too
    for (const section& other : state.catalog.sections()) {
      for (const details_extension& extension : other.extensions) {
        if (extension.type == match.resource->type) {
          out.insert(extension.joins.begin(), extension.joins.end());
        }
      }
    }
  }
  return out;
}

// Every "path" in an answer: the objects it links to, which are routes too.
void collect_paths(const json& value, std::vector<std::string>& out) {
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      if (key == "path" && member.is_string() && member.get<std::string>().starts_with("/api/v1/")) {
        out.push_back(member.get<std::string>());
      } else {
        collect_paths(member, out);
      }
    }
  } else if (value.is_array()) {
    for (const json& member : value) {
      collect_paths(member, out);
    }
  }
}

}  // namespace

TEST_CASE("no route's answer reads a kind its caller was not checked for", "[auth][guard]") {
  testing::demo_daemon demo(true);
  demo.state.per_caller_views = true;
  std::deque<std::string> to_ask;
  std::set<std::string> seen;
  auto enqueue = [&](const std::string& target) {
    if (seen.insert(target).second) {
      to_ask.push_back(target);
    }
  };
  for (const section& s : demo.state.catalog.sections()) {
    for (const resource_def& resource : s.resources) {
      if (resource.shown) {
        enqueue("/api/v1/" + s.id + "/" + resource.id);
      }
    }
  }
  // A section's own routes take segments of their own: each is asked about the objects of every
  // kind, in the shapes such routes take, until one of each kind is answered.
  std::map<std::string, int> route_answers;
  for (const section& s : demo.state.catalog.sections()) {
    for (const section_route& route : s.routes) {
      const std::string base = "/api/v1/" + s.id + "/" + route.segment + "/";
      route_answers[base] = 0;
      for (const kind_key& type : demo.state.store.kinds()) {
        for (const object_ptr& object : demo.state.store.list(type)) {
          const std::string where =
              (object->namespace_.empty() ? "" : std::string(object->namespace_) + "/") + std::string(object->name);
          bool answered = false;
          for (const std::string& target :
               {base + demo.state.catalog.plural_for(type, demo.state.served) + "/" + where, base + where}) {
            answered = answered || ask_noting(demo, target).status == 200;
            if (answered) {
              enqueue(target);
              break;
            }
          }
          if (answered) {
            break;
          }
        }
      }
    }
  }
  std::vector<std::string> unchecked;
  int guarded = 0;
  while (!to_ask.empty()) {
    const std::string target = to_ask.front();
    to_ask.pop_front();
    guarded_answer answer = ask_noting(demo, target);
    if (answer.status != 200) {
      continue;
    }
    std::vector<std::string> paths;
    collect_paths(answer.body, paths);
    for (const std::string& path : paths) {
      enqueue(path);
    }
    for (auto& [base, answered] : route_answers) {
      answered += target.starts_with(base) ? 1 : 0;
    }
    std::optional<view_stamp> stamp = stamp_of(demo, target);
    if (!stamp) {
      continue;  // nothing read from the cache (sections, settings)
    }
    ++guarded;
    if (stamp->read_every_kind()) {
      unchecked.push_back(target + " reads every kind at once");
    }
    const std::set<kind_key> joins = declared_joins(demo.state, target);
    for (const kind_key& type : stamp->kinds()) {
      if (joins.contains(type)) {
        continue;
      }
      if (!demo.state.served.serves(type) && demo.state.store.count(type) == 0) {
        continue;  // a kind nobody serves has nothing to tell (a link to an unknown kind looks it up)
      }
      const std::string plural = demo.state.catalog.plural_for(type, demo.state.served);
      const bool checked = std::any_of(answer.asked.begin(), answer.asked.end(), [&](const access_check& check) {
        return check.group == type.group && check.resource == plural;
      });
      if (!checked) {
        unchecked.push_back(target + " reads " + type.to_string() + " (" + plural + ") unchecked");
      }
    }
  }
  INFO(guarded << " answers guarded");
  CHECK(guarded > 50);
  for (const auto& [base, answered] : route_answers) {
    INFO(base << " answered nothing the guard could check: give this test an object it answers");
    CHECK(answered > 0);
  }
  for (const std::string& line : unchecked) {
    FAIL_CHECK(line);
  }
}

TEST_CASE("a computed page needs list on every kind it is made of", "[auth]") {
  testing::demo_daemon demo;
  demo.state.per_caller_views = true;
  // May read everything but ResourceSlices and Nodes.
  auto ask = [&demo](const std::string& target, std::function<bool(const access_check&)> allowed) {
    request_access access(
        caller{"alice", "", {"system:authenticated"}, {}},
        [&allowed](const caller&, const access_check& check) -> std::optional<bool> { return allowed(check); });
    for (int round = 0; round < 5; ++round) {
      api_router router(demo.state, &access);
      api_response response = router.handle({"GET", target, "", ""});
      if (access.decided()) {
        return response;
      }
      access.take_pending();
    }
    FAIL("undecided");
    return api_response{};
  };
  auto but_slices_and_nodes = [](const access_check& check) {
    return check.resource != "resourceslices" && check.resource != "nodes";
  };
  api_response devices = ask("/api/v1/dra/devices", but_slices_and_nodes);
  CHECK(devices.status == 403);
  CHECK_THAT(devices.body, Catch::Contains("list resourceslices"));
  CHECK(devices.body.find("gpu") == std::string::npos);
  api_response gpunodes = ask("/api/v1/gpu-operator/gpunodes", but_slices_and_nodes);
  CHECK(gpunodes.status == 403);
  CHECK_THAT(gpunodes.body, Catch::Contains("list nodes"));
  // Let list them, the caller reads both pages.
  auto everything = [](const access_check&) { return true; };
  CHECK(ask("/api/v1/dra/devices", everything).status == 200);
  CHECK(ask("/api/v1/gpu-operator/gpunodes", everything).status == 200);
}
