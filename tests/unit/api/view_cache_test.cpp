// Views are rendered once per change: polls between changes are served from the cache, a
// change (or, for a view that reads the clock, a new second) renders again. Counted, not timed.

#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "api/list_query.hpp"
#include "api/view_cache.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"
#include "support/gunzip.hpp"

using namespace sextant;

namespace {

const kind_key widget_type{"example.com", "Widget"};

// "1h", "1h 2m": whole hours and minutes, enough for the ages these tests set.
std::string age_text(std::chrono::seconds age) {
  const auto hours = age.count() / 3600;
  const auto minutes = age.count() % 3600 / 60;
  return std::to_string(hours) + "h" + (minutes != 0 ? " " + std::to_string(minutes) + "m" : std::string());
}

// A section whose list shows each widget's age: it reads the clock.
section clock_reading_section() {
  section s;
  s.id = "example";
  s.title = "Example";
  s.group = "example.com";
  resource_def widgets = kind_resource("widgets", "Widgets", widget_type, scope::namespaced);
  widgets.state = [](const cached_object& object, const view_context& context) {
    time_point created =
        parse_rfc3339(string_or(object.body(), {"metadata", "creationTimestamp"})).value_or(time_point{});
    auto age = std::chrono::duration_cast<std::chrono::seconds>(context.now - created);
    return object_state{"Ready", "", "up for " + age_text(age)};
  };
  s.resources.push_back(std::move(widgets));
  return s;
}

std::vector<section> sections_with_widgets() {
  std::vector<section> sections = all_sections();
  sections.push_back(clock_reading_section());
  return sections;
}

struct cache_fixture {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{sections_with_widgets(), clock};
  api_router router{state};

  cache_fixture() {
    load(R"(
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: ml, uid: p1, labels: {app: train, tier: gpu}}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: p2, namespace: ml, uid: p2, labels: {app: serve}}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: p3, namespace: other, uid: p3, labels: {app: train}}
status: {phase: Running}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w1, namespace: ml, uid: w1, creationTimestamp: "2026-11-29T11:00:00Z"}
)");
    state.settle_snapshot_lists();
  }

  void load(const std::string& yaml) {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("cluster.yaml", yaml, false, report);
    REQUIRE(report.errors.empty());
  }

  api_response get(const std::string& target, const std::string& if_none_match = {},
                   const std::string& accept_encoding = {}) {
    return router.handle({"GET", target, if_none_match, "", accept_encoding});
  }
  static std::string header(const api_response& response, const std::string& name) {
    for (const auto& [key, value] : response.headers) {
      if (key == name) {
        return value;
      }
    }
    return {};
  }
  static json body(const api_response& response) { return json::parse(response.body); }
  std::uint64_t list_renders() const { return state.views->list_renders(); }
};

std::vector<std::string> names(const json& list) {
  std::vector<std::string> out;
  for (const json& item : list["items"]) {
    out.push_back(item["name"]);
  }
  return out;
}

}  // namespace

TEST_CASE("a list is not rendered again between two polls when nothing changed", "[view-cache]") {
  cache_fixture f;
  auto first = f.get("/api/v1/core/pods");
  REQUIRE(first.status == 200);
  CHECK(f.list_renders() == 1);
  auto second = f.get("/api/v1/core/pods");
  CHECK(f.list_renders() == 1);
  CHECK(second.body == first.body);
  CHECK(cache_fixture::header(second, "ETag") == cache_fixture::header(first, "ETag"));
  CHECK(f.get("/api/v1/core/pods", cache_fixture::header(first, "ETag")).status == 304);
  // Pages and filters are cut from the same rendered list.
  CHECK(f.get("/api/v1/core/pods?limit=1").status == 200);
  CHECK(f.get("/api/v1/core/pods?namespace=ml").status == 200);
  CHECK(f.list_renders() == 1);
  // Time passing changes nothing for a list that does not read the clock.
  f.clock.set(testing::at("2026-11-29T12:05:00Z"));
  CHECK(f.get("/api/v1/core/pods").body == first.body);
  CHECK(f.list_renders() == 1);
  // Another kind changing does not touch it either (a served one: a newly served kind may
  // change every view's links).
  f.load("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w2, namespace: ml, uid: w2}\n");
  CHECK(f.get("/api/v1/core/pods").body == first.body);
  CHECK(f.list_renders() == 1);
}

TEST_CASE("a change to a kind the list reads renders it again, once", "[view-cache]") {
  cache_fixture f;
  auto first = f.get("/api/v1/core/pods");
  const std::string etag = cache_fixture::header(first, "ETag");
  f.load("apiVersion: v1\nkind: Pod\nmetadata: {name: p4, namespace: ml, uid: p4}\n");
  auto after = f.get("/api/v1/core/pods", etag);
  CHECK(after.status == 200);
  CHECK(f.list_renders() == 2);
  CHECK(cache_fixture::header(after, "ETag") != etag);
  CHECK(names(cache_fixture::body(after)) == std::vector<std::string>{"p1", "p2", "p4", "p3"});
  f.get("/api/v1/core/pods");
  f.get("/api/v1/core/pods?limit=2");
  CHECK(f.list_renders() == 2);
  // A removal too.
  REQUIRE(f.state.store.remove({"", "Pod"}, "ml", "p4"));
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods"))) == std::vector<std::string>{"p1", "p2", "p3"});
  CHECK(f.list_renders() == 3);
}

TEST_CASE("a view that reads the clock is rendered again each new second, and only then", "[view-cache]") {
  cache_fixture f;
  auto first = f.get("/api/v1/example/widgets");
  REQUIRE(first.status == 200);
  CHECK(cache_fixture::body(first)["items"][0]["state"]["message"] == "up for 1h");
  CHECK(f.list_renders() == 1);
  f.clock.set(testing::at("2026-11-29T12:00:00Z") + std::chrono::milliseconds(600));
  CHECK(f.get("/api/v1/example/widgets").body == first.body);
  CHECK(f.list_renders() == 1);
  f.clock.set(testing::at("2026-11-29T12:02:00Z"));
  auto later = f.get("/api/v1/example/widgets", cache_fixture::header(first, "ETag"));
  CHECK(later.status == 200);
  CHECK(f.list_renders() == 2);
  CHECK(cache_fixture::body(later)["items"][0]["state"]["message"] == "up for 1h 2m");
  // The pods list, which never reads the clock, was rendered once through all this.
  f.get("/api/v1/core/pods");
  f.clock.set(testing::at("2026-11-29T12:03:00Z"));
  f.get("/api/v1/core/pods");
  CHECK(f.list_renders() == 3);
}

TEST_CASE("details and problems are cached until what they read changes", "[view-cache]") {
  cache_fixture f;
  auto details = f.get("/api/v1/core/pods/ml/p1");
  REQUIRE(details.status == 200);
  auto renders = f.state.views->answer_renders();
  CHECK(f.get("/api/v1/core/pods/ml/p1").body == details.body);
  CHECK(f.state.views->answer_renders() == renders);
  CHECK(f.get("/api/v1/core/pods/ml/p1", cache_fixture::header(details, "ETag")).status == 304);
  // New problems (a re-evaluation that finds something else) render details again.
  f.load("apiVersion: v1\nkind: Pod\nmetadata: {name: p1, namespace: ml, uid: p1}\nstatus: {phase: Failed}\n");
  auto changed = f.get("/api/v1/core/pods/ml/p1", cache_fixture::header(details, "ETag"));
  CHECK(changed.status == 200);
  CHECK(changed.body != details.body);
  auto problems = f.get("/api/v1/problems");
  renders = f.state.views->answer_renders();
  f.get("/api/v1/problems");
  CHECK(f.state.views->answer_renders() == renders);
  const auto before = f.state.problems.generation();
  f.state.problems.set_enabled("kueue-workloads", true);
  CHECK(f.state.problems.generation() != before);
  auto enabled = f.get("/api/v1/problems", cache_fixture::header(problems, "ETag"));
  CHECK(enabled.status == 200);
  CHECK(f.state.views->answer_renders() == renders + 1);
}

TEST_CASE("requests arriving while a list renders share its render", "[view-cache]") {
  cache_fixture f;
  std::unique_ptr<answer_work> a = f.router.begin({"GET", "/api/v1/core/pods", "", "", ""});
  std::unique_ptr<answer_work> b = f.router.begin({"GET", "/api/v1/core/pods", "", "", ""});
  std::unique_ptr<answer_work> page = f.router.begin({"GET", "/api/v1/core/pods?limit=1", "", "", ""});
  // Smallest slices: one object per step, interleaved as the event loop would run them.
  bool a_done = false, b_done = false, page_done = false;
  for (int i = 0; i < 50 && !(a_done && b_done && page_done); ++i) {
    a_done = a_done || a->step(std::chrono::microseconds(0));
    b_done = b_done || b->step(std::chrono::microseconds(0));
    page_done = page_done || page->step(std::chrono::microseconds(0));
  }
  REQUIRE((a_done && b_done && page_done));
  CHECK(f.list_renders() == 1);
  api_response first = a->take();
  api_response second = b->take();
  CHECK(first.bytes() == second.bytes());
  CHECK(names(json::parse(page->take().bytes())) == std::vector<std::string>{"p1"});
}

TEST_CASE("pages: limit and continue walk a list once, across changes", "[view-cache][list-query]") {
  cache_fixture f;
  auto page1 = cache_fixture::body(f.get("/api/v1/core/pods?limit=2"));
  CHECK(names(page1) == std::vector<std::string>{"p1", "p2"});
  CHECK(page1["remainingItemCount"] == 1);
  REQUIRE(page1["continue"].is_string());
  // An object added behind the cursor is not seen; one ahead of it is.
  f.load(
      "apiVersion: v1\nkind: Pod\nmetadata: {name: a0, namespace: ml, uid: a0}\n---\n"
      "apiVersion: v1\nkind: Pod\nmetadata: {name: z9, namespace: other, uid: z9}\n");
  auto page2 = cache_fixture::body(f.get("/api/v1/core/pods?limit=2&continue=" + page1["continue"].get<std::string>()));
  CHECK(names(page2) == std::vector<std::string>{"p3", "z9"});
  CHECK(page2["continue"].is_null());
  CHECK(page2["remainingItemCount"] == 0);
  // An unpaged list has neither field.
  auto whole = cache_fixture::body(f.get("/api/v1/core/pods"));
  CHECK_FALSE(whole.contains("continue"));
  CHECK(whole["items"].size() == 5);
}

TEST_CASE("pages: a bad limit or continue is a 400 that says why", "[view-cache][list-query]") {
  cache_fixture f;
  for (const char* bad : {"limit=0", "limit=-1", "limit=abc", "limit=", "limit=10001", "limit=5x"}) {
    auto response = f.get(std::string("/api/v1/core/pods?") + bad);
    CHECK(response.status == 400);
    CHECK(cache_fixture::body(response)["error"]["reason"] == "BadRequest");
    CHECK(cache_fixture::body(response)["error"]["message"].get<std::string>().find("limit must be") == 0);
  }
  for (const char* bad : {"continue=garbage!", "continue=", "continue=djEKL2FwaS92MS9jb3JlL25vZGVzCjAKeA"}) {
    auto response = f.get(std::string("/api/v1/core/pods?") + bad);
    CHECK(response.status == 400);
    CHECK(cache_fixture::body(response)["error"]["message"].get<std::string>().find("continue must be") == 0);
  }
  // A token of one list does not continue another.
  f.load(
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1, uid: n1}\n---\n"
      "apiVersion: v1\nkind: Node\nmetadata: {name: n2, uid: n2}\n");
  auto nodes = cache_fixture::body(f.get("/api/v1/core/nodes?limit=1"));
  REQUIRE(nodes["continue"].is_string());
  CHECK(f.get("/api/v1/core/pods?continue=" + nodes["continue"].get<std::string>()).status == 400);
}

TEST_CASE("filters: state, queue and equality label selectors", "[view-cache][list-query]") {
  cache_fixture f;
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?state=Running"))) == std::vector<std::string>{"p1", "p3"});
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?labelSelector=app%3Dtrain"))) ==
        std::vector<std::string>{"p1", "p3"});
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?labelSelector=app%3D%3Dtrain,tier"))) ==
        std::vector<std::string>{"p1"});
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?labelSelector=app!%3Dtrain"))) ==
        std::vector<std::string>{"p2"});
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?labelSelector=!tier&namespace=ml"))) ==
        std::vector<std::string>{"p2"});
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?queue=nope"))).empty());
  CHECK(names(cache_fixture::body(f.get("/api/v1/core/pods?state=Running&limit=1"))) == std::vector<std::string>{"p1"});
  CHECK(f.get("/api/v1/core/pods?labelSelector=app%20in%20(a,b)").status == 400);
  CHECK(f.get("/api/v1/core/pods?labelSelector=%3Dx").status == 400);
  CHECK(f.get("/api/v1/core/pods?state=").status == 400);
  CHECK(f.get("/api/v1/core/pods?sate=Running").status == 400);
  CHECK(f.list_renders() == 1);
}

TEST_CASE("gzip when the client asks for it, under its own ETag", "[view-cache][gzip]") {
  cache_fixture f;
  auto plain = f.get("/api/v1/core/pods");
  auto zipped = f.get("/api/v1/core/pods", "", "gzip, deflate");
  CHECK(cache_fixture::header(zipped, "Content-Encoding") == "gzip");
  CHECK(cache_fixture::header(plain, "Content-Encoding").empty());
  CHECK(cache_fixture::header(zipped, "Vary") == "Accept-Encoding");
  CHECK(testing::gunzip(zipped.body) == plain.body);
  CHECK(cache_fixture::header(zipped, "ETag") != cache_fixture::header(plain, "ETag"));
  CHECK(f.get("/api/v1/core/pods", cache_fixture::header(zipped, "ETag"), "gzip").status == 304);
  CHECK(cache_fixture::header(f.get("/api/v1/core/pods", "", "gzip;q=0"), "Content-Encoding").empty());
  CHECK(accepts_gzip("br, GZIP;q=0.5"));
  CHECK_FALSE(accepts_gzip("identity"));
  CHECK(f.list_renders() == 1);
}
