#include "review_callers.hpp"

#include <atomic>
#include <mutex>
#include <thread>

#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "live_objects.hpp"

namespace sextant::integration {
namespace {
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

// Asks until the answer is not a 503 (or `limit` passes); the first other answer is returned,
// with how long it took. A wrong verdict kept from the outage would be that first answer.
std::pair<answer, steady::duration> first_verdict(const std::string& url, const std::string& token,
                                                  steady::duration limit) {
  const steady::time_point started = steady::now();
  answer got;
  do {
    got = http_as(token, "GET", url, guarded);
    if (got.status != 503) {
      break;
    }
    std::this_thread::sleep_for(100ms);
  } while (steady::now() - started < limit);
  return {got, steady::now() - started};
}

}  // namespace

caller_factory::caller_factory(admin_client& admin) : admin_(admin) {
  for (const std::string ns : {"readers", "strangers"}) {
    REQUIRE(admin_.post("/api/v1/namespaces", namespace_object(ns)).ok());
  }
  const std::string rbac = "/apis/rbac.authorization.k8s.io/v1/";
  REQUIRE(admin_
              .post(rbac + "clusterroles",
                    {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                     {"kind", "ClusterRole"},
                     {"metadata", {{"name", "sextant-metrics"}}},
                     {"rules", json::array({{{"nonResourceURLs", {"/sextant/metrics"}}, {"verbs", {"get"}}}})}})
              .ok());
  REQUIRE(
      admin_
          .post(rbac + "clusterrolebindings",
                {{"apiVersion", "rbac.authorization.k8s.io/v1"},
                 {"kind", "ClusterRoleBinding"},
                 {"metadata", {{"name", "sextant-metrics-readers"}}},
                 {"roleRef",
                  {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "sextant-metrics"}}},
                 {"subjects", json::array({{{"kind", "Group"},
                                            {"apiGroup", "rbac.authorization.k8s.io"},
                                            {"name", "system:serviceaccounts:readers"}}})}})
          .ok());
}

callers caller_factory::fresh(const std::string& name) {
  return {token("readers", name), token("strangers", name), "not-a-token-" + name};
}

std::string caller_factory::token(const std::string& ns, const std::string& name) {
  REQUIRE(admin_
              .post("/api/v1/namespaces/" + ns + "/serviceaccounts",
                    {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", name}}}})
              .ok());
  answer issued = admin_.post(
      "/api/v1/namespaces/" + ns + "/serviceaccounts/" + name + "/token",
      {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenRequest"}, {"spec", {{"expirationSeconds", 3600}}}});
  REQUIRE(issued.ok());
  return issued.body()["status"]["token"].get<std::string>();
}

std::string kubeconfig_through(const test_cluster& cluster, const fault_proxy& proxy) {
  const std::filesystem::path file = cluster.dir() / "kubeconfig-faultproxy.yaml";
  write_text(file,
             "apiVersion: v1\nkind: Config\ncurrent-context: proxy\nclusters:\n- name: proxy\n  cluster:\n"
             "    server: " +
                 proxy.env("URL") + "\n    certificate-authority: " + proxy.env("CA_CRT") +
                 "\nusers:\n- name: admin\n  user:\n    tokenFile: " + cluster.env("ADMIN_TOKEN_FILE") +
                 "\ncontexts:\n- name: proxy\n  context: {cluster: proxy, user: admin}\n");
  return file.string();
}

std::string describe(const answer& got) {
  return std::to_string(got.status) + " (Retry-After \"" + got.retry_after + "\") " + got.text.substr(0, 300) +
         got.error;
}

bool unavailable(const answer& got) {
  const json body = got.body();
  int retry = 0;
  try {
    retry = std::stoi(got.retry_after);
  } catch (const std::exception&) {
    return false;
  }
  return got.status == 503 && body.is_object() && body["error"].is_object() && body["error"]["code"] == 503 &&
         body["error"]["reason"] == "Unavailable" && body["error"]["message"].is_string() &&
         !body["error"]["message"].get<std::string>().empty() && retry >= 1 && retry <= 10;
}

int status_of(const std::string& url, const std::string& token) {
  return http_as(token, "GET", url, guarded).status;
}

void require_verdicts(const std::string& url, const callers& who) {
  json settled = wait_for(
      [&] {
        return json::array({status_of(url, who.allowed), status_of(url, who.denied), status_of(url, who.unknown)});
      },
      [](const json& got) {
        return got == json::array({200, 403, 401});
      },
      30s);
  REQUIRE(settled == json::array({200, 403, 401}));
}

void check_verdicts_at_once(const std::string& url, const callers& who, steady::duration within) {
  for (const auto& [token, expected] :
       std::vector<std::pair<std::string, int>>{{who.allowed, 200}, {who.denied, 403}, {who.unknown, 401}}) {
    auto [got, took] = first_verdict(url, token, 20s);
    INFO("expected " << expected << ", got " << describe(got) << " after "
                     << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms");
    CHECK(got.status == expected);
    CHECK(took <= within);
    // And again: what is kept now is the server's verdict.
    CHECK(status_of(url, token) == expected);
  }
}

void check_verdicts_after_restart(const std::string& url, const callers& who, steady::duration within) {
  for (const auto& [token, expected] :
       std::vector<std::pair<std::string, int>>{{who.allowed, 200}, {who.denied, 403}, {who.unknown, 401}}) {
    const steady::time_point started = steady::now();
    answer got;
    std::vector<int> before;
    while (true) {
      got = http_as(token, "GET", url, guarded);
      const bool not_yet = got.status == 503 || (expected != 401 && (got.status == 401 || got.status == 403));
      if (got.status == expected || !not_yet || steady::now() - started >= within + 5s) {
        break;
      }
      before.push_back(got.status);
      std::this_thread::sleep_for(100ms);
    }
    const auto took = steady::now() - started;
    INFO("expected " << expected << ", got " << describe(got) << " after "
                     << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms, " << before.size()
                     << " answers before it");
    CHECK(got.status == expected);
    CHECK(took <= within);
    CHECK(status_of(url, token) == expected);
  }
}

void check_ready_unchanged(const std::string& url, const std::string& before) {
  answer ready = http_get(url, "/readyz");
  CHECK(ready.status == 200);
  CHECK(ready.text == before);
}

int storm(const std::string& url, const std::vector<std::string>& tokens, steady::duration length,
          const std::function<void(const std::string&, const answer&)>& check) {
  constexpr int threads = 4;
  std::mutex guard;
  std::atomic<int> asked{0};
  std::vector<std::thread> running;
  const steady::time_point until = steady::now() + length;
  for (int t = 0; t < threads; ++t) {
    running.emplace_back([&, t] {
      for (std::size_t n = t; steady::now() < until; ++n) {
        const std::string& token = tokens[n % tokens.size()];
        answer got = http_as(token, "GET", url, guarded);
        ++asked;
        std::lock_guard<std::mutex> lock(guard);  // Catch's assertions are not thread-safe
        check(token, got);
        std::this_thread::sleep_for(10ms);  // a caller's pace, not a benchmark's
      }
    });
  }
  for (std::thread& thread : running) {
    thread.join();
  }
  return asked.load();
}

}  // namespace sextant::integration
