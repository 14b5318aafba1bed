#include "kube/reflector.hpp"

#include <array>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "fake_lister_watcher.hpp"
#include "kube_test_support.hpp"

using namespace sextant;
using namespace sextant::kube;
using namespace sextant::kube::testing;

namespace {

const kind_key pod_type{"", "Pod"};

json pod(const std::string& name, const std::string& version, const std::string& uid = {}) {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata",
               {{"name", name},
                {"namespace", "ml"},
                {"uid", uid.empty() ? "uid-" + name : uid},
                {"resourceVersion", version}}}};
}

json bookmark(const std::string& version, bool initial_end = false) {
  json object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"resourceVersion", version}}}};
  if (initial_end) {
    object["metadata"]["annotations"] = {{"k8s.io/initial-events-end", "true"}};
  }
  return object;
}

json status(int code, const std::string& reason, const std::string& message) {
  return json{{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"},
              {"code", code},     {"reason", reason},   {"message", message}};
}

decoded_list page(std::vector<json> items, const std::string& version, const std::string& continue_token = {}) {
  decoded_list list;
  list.api_version = "v1";
  list.kind = "PodList";
  list.resource_version = version;
  list.continue_token = continue_token;
  for (const json& item : items) {
    list.items.push_back(pack(item));
  }
  return list;
}

// One reflector over a fake lister-watcher. Its backoffs move the harness's clock instead of
// waiting (recorded in `waited`), so no test sleeps on real time.
struct harness {
  explicit harness(reflector_options options = {}) {
    options.sleep = [this](std::chrono::milliseconds delay) -> net::awaitable<void> {
      waited.push_back(delay);
      wall.set(wall.now() + delay);
      net::steady_timer turn(co_await net::this_coro::executor);  // let the test's script go on
      turn.expires_after(std::chrono::seconds(0));
      co_await turn.async_wait(use_tuple);
    };
    script = std::make_shared<fake_script>(io.get_executor());
    watch =
        std::make_shared<reflector>(io.get_executor(), pod_type, "pods", std::make_unique<fake_lister_watcher>(script),
                                    store, metrics, wall, options, [this] { ++not_found; });
    net::co_spawn(io, reflector::run(watch), net::detached);
  }
  ~harness() {
    watch->stop();
    run_until(io, [this] { return watch->finished(); });
  }

  bool settle(std::function<bool()> done) { return run_until(io, std::move(done)); }
  double metric(const char* name) { return metrics.value(name, {{"resource", "pods"}}); }
  std::vector<std::string> names() {
    std::vector<std::string> out;
    for (const object_ptr& o : store.list(pod_type)) {
      out.push_back(std::string(o->name) + "@" + std::string(o->resource_version));
    }
    return out;
  }

  net::io_context io;
  object_store store;
  metrics_registry metrics;
  fixed_clock wall{std::chrono::system_clock::now()};
  std::shared_ptr<fake_script> script;
  std::shared_ptr<reflector> watch;
  int not_found = 0;
  std::vector<std::chrono::milliseconds> waited;
};

}  // namespace

// Not from version "0": the watch cache answers that whole, whatever the limit (a 1.12 GB page
// of 150 000 Pods from a 1.37 server); a consistent read is paged by every server.
TEST_CASE("the first list is paged as consistent reads and replaces the store at once", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10"), pod("b", "11")}, "20", "token-1"));
  REQUIRE(h.settle([&] { return h.script->list_calls.size() == 2; }));
  CHECK(h.store.count(pod_type) == 0);  // nothing is shown until the whole list is in
  CHECK_FALSE(h.watch->synced());
  h.script->answer_list_page(page({pod("c", "12")}, "20"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));

  CHECK(h.script->list_calls[0].resource_version.empty());
  CHECK(h.script->list_calls[0].limit == 500);
  CHECK(h.script->list_calls[0].continue_token.empty());
  CHECK(h.script->list_calls[1].continue_token == "token-1");
  CHECK(h.names() == std::vector<std::string>{"a@10", "b@11", "c@12"});
  CHECK(h.store.completeness(pod_type).value == list_completeness::state::complete);
  CHECK(h.metric(reflector_metrics::last_sync) > 0);

  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 1; }));
  const watch_request& watch = h.script->watch_calls[0];
  CHECK(watch.resource_version == "20");
  CHECK_FALSE(watch.send_initial_events);
  CHECK(watch.timeout >= std::chrono::seconds(300));
  CHECK(watch.timeout < std::chrono::seconds(600));
  // Given up on after a bounded silence, well past the server's minute between bookmarks.
  CHECK(watch.idle_timeout == std::chrono::seconds(150));
}

TEST_CASE("a watch that stalls without closing is given up on after a bounded silence, not at its timeout",
          "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  auto stalled = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 1; }));
  // The old bound was the watch's own timeout (5-10 minutes) plus 30 s: a stall went unseen.
  CHECK(h.script->watch_calls[0].idle_timeout <= std::chrono::seconds(150));
  CHECK(h.script->watch_calls[0].idle_timeout > std::chrono::seconds(60));  // a bookmark's interval
  stalled->event("MODIFIED", pod("a", "12"));
  stalled->end(watch_item::kind::idle, api_error{0, "Timeout", "no data for 150s"});
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));
  CHECK(h.script->watch_calls[1].resource_version == "12");  // resumed where the stall began
  CHECK(h.script->list_calls.size() == 1);
  CHECK(h.metric(reflector_metrics::watch_restarts) == 1);

  reflector_options shorter;
  shorter.watch_silence = std::chrono::seconds(5);
  harness quick(shorter);
  quick.script->answer_list_page(page({}, "3"));
  REQUIRE(quick.settle([&] { return quick.script->watch_calls.size() == 1; }));
  CHECK(quick.script->watch_calls[0].idle_timeout == std::chrono::seconds(5));
}

TEST_CASE("a 429 or 503 with Retry-After is not tried again before it, jittered and capped", "[kube][reflector]") {
  harness h;
  h.script->answer_list(
      list_result{std::nullopt, api_error{429, "TooManyRequests", "slow down", std::chrono::seconds(5)}});
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  h.script->refuse_watch(503, "ServiceUnavailable");
  h.script->watches.emplace_back(nullptr, api_error{503, "ServiceUnavailable", "", std::chrono::seconds(3)});
  h.script->watches.emplace_back(nullptr, api_error{429, "TooManyRequests", "", std::chrono::hours(1)});
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 4; }));
  REQUIRE(h.waited.size() == 4);
  // The list waited out its 5 s (not the backoff's first 0.8-1.6 s), and no more than half again.
  CHECK(h.waited[0] >= std::chrono::seconds(5));
  CHECK(h.waited[0] <= std::chrono::milliseconds(7500));
  CHECK(h.waited[1] < std::chrono::milliseconds(3200));  // no Retry-After: the backoff alone
  CHECK(h.waited[2] >= std::chrono::seconds(3));
  CHECK(h.waited[3] >= std::chrono::seconds(60));  // an hour is capped at a minute
  CHECK(h.waited[3] <= std::chrono::seconds(90));
  CHECK(h.script->list_calls.size() == 2);  // watches refused are re-opened, not relisted
  CHECK(h.watch->synced());
}

TEST_CASE("watch events change the store and bookmarks only move the version", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  auto stream = h.script->answer_watch();
  stream->event("ADDED", pod("b", "11"));
  stream->event("MODIFIED", pod("a", "12"));
  stream->event("DELETED", pod("b", "13"));
  stream->event("BOOKMARK", bookmark("40"));
  REQUIRE(h.settle([&] { return h.watch->resource_version() == "40"; }));
  CHECK(h.names() == std::vector<std::string>{"a@12"});
  // Three events changed an object; the bookmark is not counted.
  CHECK(h.metric(reflector_metrics::watch_events) == 3);

  // The server ends the watch at its timeout: watch again at once from the bookmark.
  stream->end(watch_item::kind::closed);
  auto second = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));
  CHECK(h.script->watch_calls[1].resource_version == "40");
  CHECK(h.script->list_calls.size() == 1);
  CHECK(h.metric(reflector_metrics::watch_restarts) == 0);

  // A delete and a recreate under the same name is a new object (another uid).
  second->event("DELETED", pod("a", "41"));
  second->event("ADDED", pod("a", "42", "uid-new"));
  REQUIRE(h.settle([&] { return h.watch->resource_version() == "42"; }));
  REQUIRE(h.store.get(pod_type, "ml", "a"));
  CHECK(h.store.get(pod_type, "ml", "a")->uid == "uid-new");
}

TEST_CASE("a 410 in the stream relists from the latest state and drops what vanished", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10"), pod("b", "10")}, "10"));
  auto stream = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 1; }));
  stream->event("ERROR", status(410, "Expired", "too old resource version: 10 (50)"));
  h.script->answer_list_page(page({pod("b", "55"), pod("c", "56")}, "60"));
  auto after = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));

  REQUIRE(h.script->list_calls.size() == 2);
  CHECK(h.script->list_calls[1].resource_version.empty());  // "" reads the latest, consistently
  CHECK(h.names() == std::vector<std::string>{"b@55", "c@56"});
  CHECK(h.script->watch_calls[1].resource_version == "60");
  CHECK(h.metric(reflector_metrics::relists_gone) == 1);
  CHECK(h.metric(reflector_metrics::list_restarts) == 1);
}

TEST_CASE("a watch refused with 410 relists too", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  h.script->refuse_watch(410, "Gone", "too old resource version");
  h.script->answer_list_page(page({pod("a", "70")}, "70"));
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));
  CHECK(h.script->list_calls.at(1).resource_version.empty());
  CHECK(h.script->watch_calls[1].resource_version == "70");
  CHECK(h.metric(reflector_metrics::relists_gone) == 1);
}

TEST_CASE("an expired continue token starts the list again from the latest state", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10", "stale-token"));
  h.script->refuse_list(410, "Expired", "The provided continue parameter is too old");
  h.script->answer_list_page(page({pod("a", "80")}, "80"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  REQUIRE(h.script->list_calls.size() == 3);
  CHECK(h.script->list_calls[2].resource_version.empty());
  CHECK(h.script->list_calls[2].continue_token.empty());
  CHECK(h.names() == std::vector<std::string>{"a@80"});
}

TEST_CASE("a broken connection backs off and resumes from the last version seen", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  auto stream = h.script->answer_watch();
  stream->event("MODIFIED", pod("a", "15"));
  stream->end(watch_item::kind::failed, api_error{0, {}, "connection reset by peer"});
  h.script->refuse_watch(0, {}, "connection refused");  // the server is restarting
  h.script->refuse_watch(503, "ServiceUnavailable");
  auto resumed = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 4; }));
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(h.script->watch_calls[i].resource_version == "15");
  }
  CHECK(h.script->list_calls.size() == 1);  // nothing was lost: no relist needed
  CHECK(h.metric(reflector_metrics::watch_restarts) == 3);
  CHECK(h.watch->synced());

  // Silence past the timeout: the link is dead; watch again.
  resumed->end(watch_item::kind::idle, api_error{0, "Timeout", "no data for 330s"});
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 5; }));
  CHECK(h.metric(reflector_metrics::watch_restarts) == 4);
}

TEST_CASE("a failing first list keeps the kind unsynced and retries with backoff", "[kube][reflector]") {
  harness h;
  h.script->refuse_list(500, "InternalError", "etcdserver: request timed out");
  REQUIRE(h.settle([&] { return h.script->list_calls.size() == 2; }));
  CHECK_FALSE(h.watch->synced());
  CHECK_THAT(h.watch->last_error(), Catch::Contains("etcdserver: request timed out"));
  CHECK(h.script->list_calls[1].resource_version.empty());
  h.script->answer_list_page(page({pod("a", "5")}, "5"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.watch->last_error().empty());
  // One backoff, client-go's first step (800 ms with up to 100 % jitter), on the test's clock.
  REQUIRE(h.waited.size() == 1);
  CHECK(h.waited[0] >= std::chrono::milliseconds(800));
  CHECK(h.waited[0] < std::chrono::milliseconds(1600));
}

TEST_CASE("backoffs grow on the injected clock and start over after a quiet spell", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  for (int i = 0; i < 3; ++i) {
    h.script->refuse_watch(503, "ServiceUnavailable");
  }
  auto stream = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 4; }));
  REQUIRE(h.waited.size() == 3);
  CHECK(h.waited[0] < std::chrono::milliseconds(1600));
  CHECK(h.waited[1] >= std::chrono::milliseconds(1600));
  CHECK(h.waited[2] >= std::chrono::milliseconds(3200));
  // Three minutes of a healthy watch later, a failure backs off from the first step again.
  h.wall.set(h.wall.now() + std::chrono::minutes(3));
  stream->end(watch_item::kind::failed, api_error{0, {}, "connection reset by peer"});
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 5; }));
  REQUIRE(h.waited.size() == 4);
  CHECK(h.waited[3] < std::chrono::milliseconds(1600));
}

TEST_CASE("a forbidden list makes the kind unreadable, not pending", "[kube][reflector]") {
  harness h;
  h.script->refuse_list(403, "Forbidden", "pods is forbidden: User \"sextant\" cannot list resource \"pods\"");
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  list_completeness completeness = h.store.completeness(pod_type);
  CHECK(completeness.value == list_completeness::state::unreadable);
  CHECK_THAT(completeness.reason, Catch::Contains("cannot list resource"));
  // Allowed again later (RBAC fixed): the kind becomes complete.
  h.script->answer_list_page(page({pod("a", "5")}, "5"));
  REQUIRE(h.settle([&] { return h.store.completeness(pod_type).complete(); }));
}

TEST_CASE("a watch forbidden after the list empties the kind and lists again once allowed", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "5")}, "5"));
  h.script->refuse_watch(403, "Forbidden", "pods is forbidden");
  REQUIRE(h.settle([&] { return h.store.completeness(pod_type).value == list_completeness::state::unreadable; }));
  CHECK(h.store.count(pod_type) == 0);
  h.script->answer_list_page(page({pod("a", "9")}, "9"));
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));
  CHECK(h.names() == std::vector<std::string>{"a@9"});
  CHECK(h.store.completeness(pod_type).complete());
}

TEST_CASE("a watch whose stream says forbidden empties the kind and lists it again once allowed", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "5")}, "5"));
  auto stream = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 1; }));
  stream->event("ERROR", status(403, "Forbidden", "pods is forbidden"));
  REQUIRE(h.settle([&] { return h.store.completeness(pod_type).value == list_completeness::state::unreadable; }));
  CHECK(h.store.count(pod_type) == 0);
  // Allowed again: listed afresh, not only watched for later changes.
  h.script->answer_list_page(page({pod("a", "9"), pod("b", "9")}, "9"));
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->list_calls.size() == 2 && h.script->watch_calls.size() == 2; }));
  CHECK(h.names() == std::vector<std::string>{"a@9", "b@9"});
  CHECK(h.store.completeness(pod_type).complete());
}

TEST_CASE("a 404 asks for discovery again", "[kube][reflector]") {
  harness h;
  h.script->answer_list_page(page({}, "5"));
  h.script->refuse_watch(404, "NotFound", "the server could not find the requested resource");
  REQUIRE(h.settle([&] { return h.not_found == 1; }));
}

TEST_CASE("a cap stops the list and says the kind is cut short", "[kube][reflector]") {
  reflector_options options;
  options.cap = 3;
  harness h(options);
  h.script->answer_list_page(page({pod("a", "1"), pod("b", "2"), pod("c", "3")}, "9", "more"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.script->list_calls.size() == 1);
  CHECK(h.script->list_calls[0].limit == 3);
  list_completeness completeness = h.store.completeness(pod_type);
  CHECK(completeness.value == list_completeness::state::truncated);
  CHECK(completeness.reason == "cut at 3 Pods");

  // New objects past the cap are not kept; changes to kept ones are.
  auto stream = h.script->answer_watch();
  stream->event("ADDED", pod("d", "10"));
  stream->event("MODIFIED", pod("a", "11"));
  REQUIRE(h.settle([&] { return h.watch->resource_version() == "11"; }));
  CHECK(h.names() == std::vector<std::string>{"a@11", "b@2", "c@3"});
}

TEST_CASE("a server that ignores limit is cut at the cap all the same", "[kube][reflector]") {
  reflector_options options;
  options.cap = 2;
  harness h(options);
  h.script->answer_list_page(page({pod("a", "1"), pod("b", "2"), pod("c", "3")}, "9"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.store.count(pod_type) == 2);
  CHECK(h.store.completeness(pod_type).value == list_completeness::state::truncated);
}

TEST_CASE("exactly the cap, with nothing more, is complete", "[kube][reflector]") {
  reflector_options options;
  options.cap = 2;
  harness h(options);
  h.script->answer_list_page(page({pod("a", "1"), pod("b", "2")}, "9"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.store.completeness(pod_type).complete());
}

TEST_CASE("a streaming list fills the store at its end bookmark and keeps watching", "[kube][reflector]") {
  reflector_options options;
  options.streaming_list = true;
  harness h(options);
  auto stream = h.script->answer_watch();
  stream->event("ADDED", pod("a", "5"));
  stream->event("ADDED", pod("b", "6"));
  stream->event("BOOKMARK", bookmark("7"));
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 1; }));
  CHECK(h.script->watch_calls[0].send_initial_events);
  CHECK(h.script->watch_calls[0].resource_version.empty());
  h.io.restart();
  h.io.run_for(std::chrono::milliseconds(20));
  CHECK_FALSE(h.watch->synced());  // a plain bookmark is not the end of the initial events
  stream->event("BOOKMARK", bookmark("8", true));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.watch->streaming());
  CHECK(h.names() == std::vector<std::string>{"a@5", "b@6"});
  CHECK(h.script->list_calls.empty());

  stream->event("MODIFIED", pod("b", "9"));
  REQUIRE(h.settle([&] { return h.watch->resource_version() == "9"; }));
  CHECK(h.names() == std::vector<std::string>{"a@5", "b@9"});
  CHECK(h.script->watch_calls.size() == 1);  // the same stream went on
}

TEST_CASE("a streaming list keeps each object's last initial event, and none that ended deleted", "[kube][reflector]") {
  reflector_options options;
  options.streaming_list = true;
  harness h(options);
  auto stream = h.script->answer_watch();
  // Out of key order, with a change, deletions, and an object deleted then added again.
  const std::vector<std::array<std::string, 3>> initial_events = {
      {"ADDED", "c", "5"},   {"ADDED", "a", "6"},   {"MODIFIED", "c", "7"}, {"ADDED", "b", "8"},
      {"DELETED", "a", "9"}, {"ADDED", "d", "10"},  {"DELETED", "d", "11"}, {"ADDED", "d", "12"},
      {"ADDED", "e", "13"},  {"DELETED", "e", "14"}};
  for (const auto& [type, name, version] : initial_events) {
    stream->event(type, pod(name, version));
  }
  stream->event("BOOKMARK", bookmark("15", true));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.names() == std::vector<std::string>{"b@8", "c@7", "d@12"});
}

TEST_CASE("a server without streaming lists gets a paged list instead", "[kube][reflector]") {
  reflector_options options;
  options.streaming_list = true;
  harness h(options);
  h.script->refuse_watch(422, "Invalid",
                         "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled");
  h.script->answer_list_page(page({pod("a", "3")}, "3"));
  auto watch = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 2; }));
  CHECK(h.watch->synced());
  CHECK_FALSE(h.watch->streaming());
  CHECK_FALSE(h.script->watch_calls[1].send_initial_events);
  CHECK(h.script->watch_calls[1].resource_version == "3");
}

TEST_CASE("a capped resource never uses a streaming list", "[kube][reflector]") {
  reflector_options options;
  options.streaming_list = true;
  options.cap = 10;
  harness h(options);
  h.script->answer_list_page(page({pod("a", "3")}, "3"));
  REQUIRE(h.settle([&] { return h.watch->synced(); }));
  CHECK(h.script->list_calls.size() == 1);
}

TEST_CASE("stopping ends the loop while it waits", "[kube][reflector]") {
  harness h;
  REQUIRE(h.settle([&] { return h.script->list_calls.size() == 1; }));
  h.watch->stop();
  REQUIRE(h.settle([&] { return h.watch->finished(); }));
}

TEST_CASE("the backoff doubles with jitter up to its cap and starts over after a quiet spell", "[kube][reflector]") {
  backoff delays({std::chrono::milliseconds(800), std::chrono::milliseconds(30000), 2.0, 1.0, std::chrono::minutes(2)},
                 42);
  auto now = std::chrono::steady_clock::now();
  std::int64_t base = 800;
  for (int i = 0; i < 10; ++i) {
    auto d = delays.next(now).count();
    CHECK(d >= base);
    CHECK(d < 2 * base);
    base = std::min<std::int64_t>(base * 2, 30000);
    now += std::chrono::seconds(1);
  }
  auto reset = delays.next(now + std::chrono::minutes(3)).count();
  CHECK(reset >= 800);
  CHECK(reset < 1600);
}

TEST_CASE("while a synced kind's watch is broken the store marks it out of date, from the first failure on",
          "[kube][reflector][out-of-date]") {
  harness h;
  h.script->answer_list_page(page({pod("a", "10")}, "10"));
  auto stream = h.script->answer_watch();
  REQUIRE(h.settle([&] { return h.watch->synced() && h.script->watch_calls.size() == 1; }));
  CHECK_FALSE(h.store.interrupted(pod_type).has_value());

  const time_point broke_at = h.wall.now();
  stream->end(watch_item::kind::failed, api_error{0, {}, "connection reset by peer"});
  h.script->refuse_watch(0, {}, "connection refused");  // the server is restarting
  REQUIRE(h.settle([&] { return h.script->watch_calls.size() == 3; }));
  // Still marked, since the first failure, in its words; the objects stay.
  REQUIRE(h.store.interrupted(pod_type).has_value());
  CHECK(h.store.interrupted(pod_type)->since == broke_at);
  CHECK_THAT(h.store.interrupted(pod_type)->reason, Catch::Contains("connection reset by peer"));
  CHECK(h.names() == std::vector<std::string>{"a@10"});

  // The third watch (waiting for its answer) opens: current again.
  h.script->answer_watch();
  REQUIRE(h.settle([&] { return !h.store.interrupted(pod_type).has_value(); }));
  CHECK(h.script->watch_calls.size() == 3);
}

TEST_CASE("a kind never listed is not read yet rather than out of date", "[kube][reflector][out-of-date]") {
  harness h;
  h.script->refuse_list(503, "ServiceUnavailable", "etcd is down");
  REQUIRE(h.settle([&] { return h.script->list_calls.size() == 2; }));
  CHECK_FALSE(h.watch->synced());
  CHECK_FALSE(h.store.interrupted(pod_type).has_value());
}
