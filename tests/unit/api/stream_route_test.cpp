// Streaming routes through the router: matched under a resource's object, the same request
// checks as every route (method, parameters, names), "no logs in a snapshot", the section's own
// errors in the error envelope, and otherwise an answer whose body is the daemon's streamer
// running the section's plan: not hashed, not cached, text/plain.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>

#include "api/api_router.hpp"
#include "auth/request_access.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"
#include "support/scripted_cluster.hpp"

using namespace sextant;

namespace {

struct stream_fixture {
  fixed_clock clock{testing::at("2026-11-29T12:00:00Z")};
  daemon_state state{all_sections(), clock};
  api_router router{state};
  std::vector<pod_log_plan> planned;

  stream_fixture() {
    snapshot_loader loader(state.store, state.served, state.profiles, clock.now());
    snapshot_report report;
    loader.load_text("ray.yaml", R"(
apiVersion: ray.io/v1
kind: RayCluster
metadata: {name: rc, namespace: ml, uid: rc}
spec: {}
---
apiVersion: v1
kind: Pod
metadata:
  name: rc-head
  namespace: ml
  uid: h
  labels: {ray.io/cluster: rc, ray.io/node-type: head}
spec: {containers: [{name: ray-head}]}
)",
                     false, report);
    REQUIRE(report.errors.empty());
    state.settle_snapshot_lists();
  }

  // As the live app sets it: here it only records the plan it was given.
  void live() {
    testing::scripted_cluster::install(state).logs = [this](pod_log_plan plan) -> pod_log_stream {
      return [this, plan = std::move(plan)](chunk_sink& sink) -> boost::asio::awaitable<void> {
        planned.push_back(plan);
        co_await sink.write("streamed\n");
      };
    };
  }
  api_response get(const std::string& target, const std::string& method = "GET") {
    return router.handle({method, target, "", ""});
  }
  static std::string reason(const api_response& response) { return json::parse(response.body)["error"]["reason"]; }
};

// Collects what a streamed answer writes.
class text_sink final : public chunk_sink {
 public:
  void fail(api_response error) override { failed = std::move(error); }
  boost::asio::awaitable<bool> write(std::string text) override {
    written += text;
    co_return true;
  }
  bool gone() const override { return false; }
  void on_gone(std::function<void()>) override {}
  std::string written;
  std::optional<api_response> failed;
};

}  // namespace

TEST_CASE("snapshot mode answers a logs route with a clear error: a snapshot holds no logs", "[router][stream]") {
  stream_fixture f;
  api_response answer = f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=head");
  CHECK(answer.status == 404);
  CHECK(f.reason(answer) == "NotServed");
  CHECK(json::parse(answer.body)["error"]["message"].get<std::string>().find("snapshot holds no logs") !=
        std::string::npos);
  CHECK_FALSE(answer.stream);
}

TEST_CASE("a streaming route's request checks and the section's own errors", "[router][stream]") {
  stream_fixture f;
  f.live();
  CHECK(f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=head", "HEAD").status == 405);
  CHECK(f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=head", "PUT").status == 405);
  api_response unknown = f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=head&since=5m");
  CHECK(unknown.status == 400);
  CHECK(json::parse(unknown.body)["error"]["message"].get<std::string>().find("follow, tailLines, role") !=
        std::string::npos);
  CHECK(f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=boss").status == 400);
  CHECK(f.get("/api/v1/kuberay/rayclusters/Not_A_Namespace/rc/logs?role=head").status == 400);
  api_response missing = f.get("/api/v1/kuberay/rayclusters/ml/gone/logs?role=head");
  CHECK(missing.status == 404);
  CHECK(f.reason(missing) == "NotFound");
  CHECK(f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=workers").status == 404);  // no worker pods
  CHECK(f.get("/api/v1/kuberay/rayclusters/ml/rc/other?role=head").status == 400);    // no such stream
  CHECK(f.planned.empty());
}

TEST_CASE("a streaming route answers with the streamer running the section's plan, unhashed", "[router][stream]") {
  stream_fixture f;
  f.live();
  api_response answer = f.get("/api/v1/kuberay/rayclusters/ml/rc/logs?role=head&follow=true&tailLines=3");
  REQUIRE(answer.status == 200);
  REQUIRE(answer.stream);
  CHECK(answer.content_type == "text/plain; charset=utf-8");
  for (const auto& [name, value] : answer.headers) {
    CHECK(name != "ETag");
    CHECK(name != "Content-Encoding");
  }
  CHECK(f.planned.empty());  // nothing is read until the server runs the body
  text_sink sink;
  boost::asio::io_context io;
  boost::asio::co_spawn(io, answer.stream(sink), boost::asio::detached);
  io.run();
  REQUIRE(f.planned.size() == 1);
  const pod_log_plan& plan = f.planned[0];
  REQUIRE(plan.sources.size() == 1);
  CHECK(plan.sources[0].pod == "rc-head");
  CHECK(plan.sources[0].container == "ray-head");
  CHECK(plan.follow);
  CHECK(plan.tail_lines == 3);
  CHECK(sink.written == "streamed\n");
}

TEST_CASE("a caller streams logs only with get on the object and on pods/log, as kubectl logs needs",
          "[router][stream][auth]") {
  stream_fixture f;
  f.live();
  const std::string target = "/api/v1/kuberay/rayclusters/ml/rc/logs?role=head";
  // Asks as app::answer does: again after each round of questions, with `allowed` deciding.
  auto ask = [&f, &target](const std::function<bool(const access_check&)>& allowed) {
    std::map<std::string, bool> decided;
    std::vector<access_check> asked;
    request_access access(caller{"bob", "", {"system:authenticated"}, {}},
                          [&decided](const caller& who, const access_check& check) -> std::optional<bool> {
                            auto it = decided.find(access_key(who, check));
                            return it == decided.end() ? std::nullopt : std::optional<bool>(it->second);
                          });
    for (int round = 0; round < 5; ++round) {
      api_router router(f.state, &access);
      api_response response = router.handle({"GET", target, "", ""});
      if (access.decided()) {
        return std::make_pair(response, asked);
      }
      for (const access_check& check : access.take_pending()) {
        asked.push_back(check);
        decided[access_key(access.who(), check)] = allowed(check);
      }
    }
    FAIL("more than five rounds of questions");
    return std::make_pair(api_response{}, asked);
  };

  auto [granted, questions] = ask([](const access_check&) { return true; });
  CHECK(granted.status == 200);
  CHECK(granted.stream);
  // Both questions in one round, in the object's namespace.
  REQUIRE(questions.size() == 2);
  CHECK(questions[0].words() == "get rayclusters in ml");
  CHECK(questions[0].group == "ray.io");
  CHECK(questions[1].resource == "pods");
  CHECK(questions[1].subresource == "log");
  CHECK(questions[1].namespace_ == "ml");

  auto [no_logs, asked_logs] = ask([](const access_check& check) { return check.subresource != "log"; });
  CHECK(no_logs.status == 403);
  CHECK_FALSE(no_logs.stream);
  CHECK_THAT(no_logs.body, Catch::Contains("bob may not get pods/log in ml"));

  auto [no_cluster, asked_cluster] = ask([](const access_check& check) { return check.resource != "rayclusters"; });
  CHECK(no_cluster.status == 403);
  CHECK_FALSE(no_cluster.stream);
  CHECK(f.planned.empty());
}
