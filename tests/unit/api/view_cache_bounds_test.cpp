// The view cache is bounded by every byte it holds, not by its bodies alone: a caller varying
// its URL (distinct filters, made-up names) can neither grow the daemon's memory past the cache's
// budget nor push out the views front-ends poll. Measured with the heap's own count of live bytes.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SEXTANT_HEAP_FROM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SEXTANT_HEAP_FROM_ASAN 1
#endif
#ifdef SEXTANT_HEAP_FROM_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

#include <catch2/catch.hpp>

#include "api/view_cache.hpp"
#include "support/demo_daemon.hpp"

using namespace sextant;

namespace {

// Bytes the heap holds live right now.
std::size_t heap_in_use() {
#ifdef SEXTANT_HEAP_FROM_ASAN
  return __sanitizer_get_current_allocated_bytes();
#else
  return mallinfo2().uordblks;
#endif
}

// A labelSelector the API server accepts, distinct for each `n`, of about 2.4 KB: eight terms
// whose keys carry a long DNS prefix.
std::string long_selector(int n) {
  std::string selector;
  for (int term = 0; term < 8; ++term) {
    selector += (term == 0 ? "" : ",");
    selector += "p" + std::to_string(n) + "-" + std::string(200, 'x') + ".example.com/k" + std::to_string(term) + "!=v";
  }
  return selector;
}

api_response get(testing::demo_daemon& demo, const std::string& target, const std::string& encoding = {}) {
  return demo.router.handle({"GET", target, "", "", encoding});
}

}  // namespace

TEST_CASE("distinct URLs grow memory only as far as the view cache counts", "[view-cache][bounds]") {
  testing::demo_daemon demo;
  REQUIRE(get(demo, "/api/v1/core/pods").status == 200);  // the list model, rendered once up front
  const std::size_t before = heap_in_use();
  const std::size_t counted_before = demo.state.views->bytes();
  for (int n = 0; n < 1500; ++n) {
    api_response page = get(demo, "/api/v1/core/pods?labelSelector=" + long_selector(n), n % 2 ? "gzip" : "");
    REQUIRE(page.status == 200);
  }
  const std::size_t grown = heap_in_use() - std::min(heap_in_use(), before);
  const std::size_t counted = demo.state.views->bytes() - std::min(demo.state.views->bytes(), counted_before);
  INFO("heap grew " << grown << " bytes; the view cache counts " << counted << " more");
  // Each answer's key is 2.4 KB and its body a few hundred bytes: a cache that counts its bodies
  // alone says a tenth of what it holds.
  CHECK(grown <= counted + counted / 2 + (1u << 20));
}

TEST_CASE("answers that are errors are not kept", "[view-cache][bounds]") {
  testing::demo_daemon demo;
  const std::size_t kept = demo.state.views->answers();
  for (int n = 0; n < 300; ++n) {
    const std::string name = "made-up-" + std::to_string(n) + std::string(200, 'x');
    CHECK(get(demo, "/api/v1/core/pods/team-a/" + name).status == 404);
    CHECK(get(demo, "/api/v1/kueue/queue/jobs/team-a/" + name).status == 404);
  }
  CHECK(demo.state.views->answers() == kept);
}

TEST_CASE("the view cache keeps to its bytes and entries, and a list's cuts to their own share",
          "[view-cache][bounds]") {
  testing::demo_daemon demo;
  constexpr std::size_t budget = std::size_t{1} << 20;
  demo.state.views = std::make_unique<view_cache>(view_cache_limits{budget, 400});
  view_cache& views = *demo.state.views;
  REQUIRE(get(demo, "/api/v1/core/pods").status == 200);
  REQUIRE(get(demo, "/api/v1/kueue/workloads", "gzip").status == 200);
  CHECK(views.answers(cache_tier::views) == 2);
  const std::size_t before = heap_in_use();
  for (int n = 0; n < 1500; ++n) {
    REQUIRE(get(demo, "/api/v1/core/pods?labelSelector=" + long_selector(n)).status == 200);
    REQUIRE(get(demo, "/api/v1/core/pods?limit=" + std::to_string(n + 1)).status == 200);
  }
  CHECK(views.bytes(cache_tier::cuts) <= budget / 8);
  CHECK(views.answers(cache_tier::cuts) <= 400 / 8);
  CHECK(views.bytes() <= budget);
  CHECK(heap_in_use() - std::min(heap_in_use(), before) <= 2 * budget);
  // The whole lists are still served from the cache: no number of distinct cuts pushed them out.
  const std::uint64_t renders = views.answer_renders();
  CHECK(get(demo, "/api/v1/core/pods").status == 200);
  CHECK(get(demo, "/api/v1/kueue/workloads", "gzip").status == 200);
  CHECK(views.answer_renders() == renders);
  // Every byte of an answer is counted: its key, its body and its entry.
  const std::size_t counted = views.bytes();
  REQUIRE(get(demo, "/api/v1/core/pods?labelSelector=" + long_selector(99999)).status == 200);
  CHECK(views.bytes() - counted >= long_selector(99999).size());
}

TEST_CASE("the view cache keeps at most its entries, the least recently used going first", "[view-cache][bounds]") {
  testing::demo_daemon demo;
  demo.state.views = std::make_unique<view_cache>(view_cache_limits{std::size_t{64} << 20, 16});
  view_cache& views = *demo.state.views;
  for (int n = 1; n <= 40; ++n) {
    REQUIRE(get(demo, "/api/v1/core/pods?limit=" + std::to_string(n)).status == 200);
  }
  CHECK(views.answers(cache_tier::cuts) == 2);  // an eighth of 16
  const std::uint64_t renders = views.answer_renders();
  get(demo, "/api/v1/core/pods?limit=40");  // the most recent: still kept
  CHECK(views.answer_renders() == renders);
  get(demo, "/api/v1/core/pods?limit=1");  // long gone
  CHECK(views.answer_renders() == renders + 1);
}

TEST_CASE("answers that can no longer be served are dropped as lookups go on, not left to fill the cache",
          "[view-cache][bounds]") {
  testing::demo_daemon demo;
  view_cache& views = *demo.state.views;
  // Every Pod's details, as front-ends open them; then no one asks for them again.
  api_response list = get(demo, "/api/v1/core/pods");
  REQUIRE(list.status == 200);
  std::vector<std::string> pods;
  const json listed = json::parse(list.bytes());
  for (const json& item : listed["items"]) {
    pods.push_back(item.value("path", ""));
  }
  REQUIRE(pods.size() >= 4);
  for (const std::string& path : pods) {
    REQUIRE(get(demo, path).status == 200);
  }
  const std::size_t kept = views.answers();
  REQUIRE(kept > pods.size());
  // A Pod deleted: every answer that read Pods is dead, though no one asks for it again.
  // ".../pods/NAMESPACE/NAME"
  const std::string& first = pods.front();
  const std::size_t name_at = first.rfind('/');
  const std::size_t namespace_at = first.rfind('/', name_at - 1);
  REQUIRE(demo.state.store.remove({"", "Pod"}, first.substr(namespace_at + 1, name_at - namespace_at - 1),
                                  first.substr(name_at + 1)));
  for (std::size_t n = 0; n < kept; ++n) {
    REQUIRE(get(demo, "/api/v1/kueue/clusterqueues").status == 200);
  }
  INFO(kept << " answers kept before the change");
  CHECK(views.answers() <= 2);
  // What is current stays: the Cluster Queues, which read no Pod, are still served from the cache.
  const std::uint64_t renders = views.answer_renders();
  REQUIRE(get(demo, "/api/v1/kueue/clusterqueues").status == 200);
  CHECK(views.answer_renders() == renders);
}
