// One caller cannot change another's answer through the view cache: an answer's key is an
// unambiguous encoding of the canonical request, never decoded text joined with raw separators.

#include <catch2/catch.hpp>

#include "api/answer_key.hpp"
#include "api/view_cache.hpp"
#include "support/demo_daemon.hpp"
#include "support/gunzip.hpp"

using namespace sextant;

namespace {

std::size_t items_in(const api_response& response, bool gzipped = false) {
  REQUIRE(response.status == 200);
  return json::parse(gzipped ? testing::gunzip(response.body) : response.body)["items"].size();
}

const std::string nightly_pending = "/api/v1/kueue/workloads?queue=nightly&state=Pending";

// Runs a request as app::answer does for a caller: again after each round of questions, here all
// answered yes.
api_response ask_as(testing::demo_daemon& demo, const caller& who, const std::string& target,
                    const std::string& encoding = {}) {
  request_access access(who, [](const caller&, const access_check&) { return std::optional<bool>(true); });
  api_router router(demo.state, &access);
  return router.handle({"GET", target, "", "", encoding});
}

}  // namespace

TEST_CASE("a query value holding an encoded & and = does not poison the answer of the request it spells",
          "[view-cache][cache-key]") {
  testing::demo_daemon demo;
  const std::size_t right = items_in(demo.router.handle({"GET", nightly_pending, "", ""}));
  REQUIRE(right == 1);
  testing::demo_daemon poisoned;
  // One value, "nightly&state=Pending": no Local Queue has that name.
  CHECK(items_in(poisoned.router.handle({"GET", "/api/v1/kueue/workloads?queue=nightly%26state%3DPending", "", ""})) ==
        0);
  CHECK(items_in(poisoned.router.handle({"GET", nightly_pending, "", ""})) == right);
  // Nor the other way round.
  testing::demo_daemon reversed;
  CHECK(items_in(reversed.router.handle({"GET", nightly_pending, "", ""})) == right);
  CHECK(items_in(reversed.router.handle({"GET", "/api/v1/kueue/workloads?queue=nightly%26state%3DPending", "", ""})) ==
        0);
}

TEST_CASE("a plain request cannot take the place of a gzip variant", "[view-cache][cache-key][gzip]") {
  testing::demo_daemon demo;
  // Spelled so that its text, joined as the old key was, read as the gzip variant of the
  // legitimate request.
  api_response odd = demo.router.handle({"GET", "/api/v1/kueue/workloads?queue=nightly&state=Pending%20gzip", "", ""});
  CHECK(items_in(odd) == 0);
  api_response zipped = demo.router.handle({"GET", nightly_pending, "", "", "gzip"});
  REQUIRE(zipped.status == 200);
  bool gzip_header = false;
  for (const auto& [name, value] : zipped.headers) {
    gzip_header = gzip_header || (name == "Content-Encoding" && value == "gzip");
  }
  CHECK(zipped.gzipped);
  CHECK(gzip_header);
  CHECK(items_in(zipped, zipped.gzipped) == 1);
}

TEST_CASE("with callers checked, one caller's odd request does not change another's answer",
          "[view-cache][cache-key][auth]") {
  testing::demo_daemon demo;
  demo.state.per_caller_views = true;
  const caller mallory{"mallory", "", {"system:authenticated"}, {}};
  const caller alice{"alice", "", {"system:authenticated"}, {}};
  CHECK(items_in(ask_as(demo, mallory, "/api/v1/kueue/workloads?queue=nightly%26state%3DPending")) == 0);
  CHECK(items_in(ask_as(demo, mallory, "/api/v1/kueue/workloads?queue=nightly&state=Pending%20gzip")) == 0);
  CHECK(items_in(ask_as(demo, alice, nightly_pending)) == 1);
  api_response zipped = ask_as(demo, alice, nightly_pending, "gzip");
  CHECK(items_in(zipped, zipped.gzipped) == 1);
}

TEST_CASE("answer keys: one per canonical request and encoding", "[cache-key]") {
  auto key = [](const std::string& target, bool gzip) {
    parsed_target parsed = parse_target(target);
    REQUIRE(parsed.error.empty());
    return answer_key(answer_scope(parsed), gzip);
  };
  std::set<std::string> keys{key("/api/v1/kueue/workloads?queue=nightly%26state%3DPending", false),
                             key("/api/v1/kueue/workloads?queue=nightly&state=Pending", false),
                             key("/api/v1/kueue/workloads?queue=nightly&state=Pending", true),
                             key("/api/v1/kueue/workloads?queue=nightly&state=Pending%20gzip", false),
                             key("/api/v1/kueue/workloads%2Fx", false),
                             key("/api/v1/kueue/workloads/x", false),
                             key("/api/v1/kueue/workloads?a=b%3Dc", false),
                             key("/api/v1/kueue/workloads?a%3Db=c", false),
                             key("/api/v1/kueue/workloads?a=", false),
                             key("/api/v1/kueue/workloads", false)};
  CHECK(keys.size() == 10);
  // The same request spelled otherwise (parameter order, encoding of plain characters) is one answer.
  CHECK(key("/api/v1/kueue/workloads?state=Pending&queue=nightly", false) ==
        key("/api/v1/kueue/workloads?queue=nightly&state=Pending", false));
  CHECK(key("/api/v1/kueue/workloads?queue=%6Eightly", true) == key("/api/v1/kueue/workloads?queue=nightly", true));
}
