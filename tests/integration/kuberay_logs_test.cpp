// The KubeRay logs routes on the production path: sextantd --kubeconfig asks the real API server
// for pods/log, which proxies each request to the pod's node's kubelet — here a small HTTPS log
// server of the test (fake_kubelet) that a Node's status points at. Head logs, worker logs
// merged with prefixes and capped at 20 (the others named), submitter logs, tailLines, follow
// (lines arrive while the answer is open), an upstream that breaks mid-stream, and a client that
// goes away (the kubelet sees its connection closed: the daemon's disconnect reached upstream).
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

#include "fake_kubelet.hpp"
#include "kube/url.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

constexpr const char* ns = "ml";
constexpr const char* node = "log-node";
constexpr int workers = 22;
const std::string ray = std::string("/apis/ray.io/v1/namespaces/") + ns + "/";
const std::string pods = std::string("/api/v1/namespaces/") + ns + "/pods";

json pod(const std::string& name, const json& labels, const std::string& container) {
  return json{
      {"apiVersion", "v1"},
      {"kind", "Pod"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}}},
      {"spec",
       {{"nodeName", node}, {"containers", json::array({{{"name", container}, {"image", "rayproject/ray:2.46.0"}}})}}}};
}

std::string worker_name(int i) {
  char name[40];
  std::snprintf(name, sizeof name, "logs-worker-%02d", i);
  return name;
}

void write_objects(admin_client& admin, fake_kubelet& kubelet) {
  create(admin, "/api/v1/namespaces", {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  json node_object =
      create(admin, "/api/v1/nodes", {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", node}}}});
  write_status(admin, "/api/v1/nodes", node_object, kubelet.node_status());

  json head_group{{"rayStartParams", json::object()},
                  {"template", {{"spec", {{"containers", json::array({{{"name", "ray-head"}, {"image", "ray"}}})}}}}}};
  create(admin, ray + "rayclusters",
         {{"apiVersion", "ray.io/v1"},
          {"kind", "RayCluster"},
          {"metadata", {{"name", "logs"}, {"namespace", ns}}},
          {"spec", {{"headGroupSpec", head_group}}}});
  create(admin, pods, pod("logs-head", {{"ray.io/cluster", "logs"}, {"ray.io/node-type", "head"}}, "ray-head"));
  std::string head_log;
  for (int line = 1; line <= 5; ++line) {
    head_log += "head line " + std::to_string(line) + "\n";
  }
  kubelet.append(ns, "logs-head", "ray-head", head_log);
  for (int i = 0; i < workers; ++i) {
    create(admin, pods,
           pod(worker_name(i), {{"ray.io/cluster", "logs"}, {"ray.io/node-type", "worker"}}, "ray-worker"));
    kubelet.append(ns, worker_name(i), "ray-worker", "hello from " + worker_name(i) + "\nsecond line\n");
  }
  create(admin, ray + "rayjobs",
         {{"apiVersion", "ray.io/v1"},
          {"kind", "RayJob"},
          {"metadata", {{"name", "train"}, {"namespace", ns}}},
          {"spec", {{"entrypoint", "python train.py"}, {"rayClusterSpec", {{"headGroupSpec", head_group}}}}}});
  create(admin, pods, pod("train-abcde", {{"batch.kubernetes.io/job-name", "train"}}, "ray-job-submitter"));
  kubelet.append(ns, "train-abcde", "ray-job-submitter", "Job 'train' submitted\n");
}

// A client of the daemon that reads a streamed answer piece by piece, with deadlines.
class stream_reader {
 public:
  stream_reader(const std::string& base_url, const std::string& path) : stream_(io_) {
    kube::url base = *kube::parse_url(base_url).value;
    net::ip::tcp::resolver resolver(io_);
    beast::error_code ec;
    stream_.connect(resolver.resolve(base.host, base.port, ec), ec);
    REQUIRE_FALSE(ec);
    http::request<http::empty_body> request{http::verb::get, path, 11};
    request.set(http::field::host, base.authority());
    http::write(stream_, request, ec);
    REQUIRE_FALSE(ec);
    http::read_header(stream_, buffer_, parser_, ec);
    REQUIRE_FALSE(ec);
  }

  int status() const { return static_cast<int>(parser_.get().result_int()); }
  std::string header(http::field field) const { return std::string(parser_.get()[field]); }
  const std::string& body() const { return body_; }
  bool ended() const { return ended_; }

  // Reads until `text` has been read, the body ends, or `limit` passes; whether `text` came.
  bool read_until(const std::string& text, std::chrono::seconds limit = std::chrono::seconds(20)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (body_.find(text) == std::string::npos && !ended_ && std::chrono::steady_clock::now() < deadline) {
      step(deadline);
    }
    return body_.find(text) != std::string::npos;
  }
  // Reads to the end of the body; whether it ended within `limit`.
  bool read_to_end(std::chrono::seconds limit = std::chrono::seconds(20)) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!ended_ && std::chrono::steady_clock::now() < deadline) {
      step(deadline);
    }
    return ended_;
  }
  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

 private:
  void step(std::chrono::steady_clock::time_point deadline) {
    std::array<char, 4096> chunk{};
    parser_.get().body().data = chunk.data();
    parser_.get().body().size = chunk.size();
    bool finished = false;
    beast::error_code error;
    http::async_read_some(stream_, buffer_, parser_, [&](beast::error_code ec, std::size_t) {
      error = ec;
      finished = true;
    });
    io_.restart();
    io_.run_until(deadline);
    if (!finished) {
      stream_.cancel();
      io_.restart();
      io_.run();
      ended_ = true;  // out of time: what came is all there is for the test
      return;
    }
    body_.append(chunk.data(), chunk.size() - parser_.get().body().size);
    if (parser_.is_done()) {
      ended_ = true;
    } else if (error && error != http::error::need_buffer) {
      ended_ = true;
      error_ = error.message();
    }
  }

  net::io_context io_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  http::response_parser<http::buffer_body> parser_;
  std::string body_;
  bool ended_ = false;
  std::string error_;
};

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t count = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++count;
  }
  return count;
}

bool eventually(const std::function<bool()>& done, std::chrono::seconds limit = std::chrono::seconds(20)) {
  for (auto deadline = std::chrono::steady_clock::now() + limit; std::chrono::steady_clock::now() < deadline;) {
    if (done()) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return done();
}

}  // namespace

TEST_CASE("KubeRay logs through the real API server and a node's kubelet", "[integration][kuberay][logs]") {
  fake_kubelet kubelet;
  test_cluster cluster({.crds = {upstream_crds("kuberay").string()}});
  admin_client admin = cluster.admin();
  write_objects(admin, kubelet);

  // The API server itself proxies to the fake kubelet: the harness, not the daemon, is faked.
  answer direct = admin.get(pods + "/logs-head/log?container=ray-head");
  INFO("direct pods/log: " << direct.status << " " << direct.text.substr(0, 300) << direct.error);
  REQUIRE(direct.status == 200);
  CHECK(direct.text.starts_with("head line 1\n"));

  sextantd_process live({"--kubeconfig", cluster.env("KUBECONFIG_TOKEN")}, cluster.dir() / "live.log");
  REQUIRE(live.wait_ready(std::chrono::seconds(60)));
  const std::string base = "/api/v1/kuberay/rayclusters/ml/logs/logs";
  answer head;
  REQUIRE(eventually([&] {
    head = http_get(live.url(), base + "?role=head");
    return head.status == 200;
  }));

  {  // head logs: the head pod's log as it is; tailLines
    CHECK(head.text == "head line 1\nhead line 2\nhead line 3\nhead line 4\nhead line 5\n");
    answer tail = http_get(live.url(), base + "?role=head&tailLines=2");
    CHECK(tail.status == 200);
    CHECK(tail.text == "head line 4\nhead line 5\n");
    bool asked_tail = false;
    for (const std::string& target : kubelet.requests()) {
      asked_tail = asked_tail || target.find("tailLines=2") != std::string::npos;
    }
    CHECK(asked_tail);
  }

  {  // worker logs: 20 merged with their pods' prefixes, the other 2 named first
    answer merged = http_get(live.url(), base + "?role=workers");
    REQUIRE(merged.status == 200);
    INFO(merged.text.substr(0, 3000));
    CHECK(
        merged.text.starts_with("[sextant] 22 worker pods; merged here: the first 20 by name; left out (2): "
                                "logs-worker-20, logs-worker-21.\n"));
    for (int i = 0; i < 20; ++i) {
      CHECK(count_of(merged.text, "[pod/" + worker_name(i) + "] hello from " + worker_name(i) + "\n") == 1);
      CHECK(count_of(merged.text, "[pod/" + worker_name(i) + "] second line\n") == 1);
    }
    CHECK(merged.text.find("hello from logs-worker-20") == std::string::npos);
    CHECK(count_of(merged.text, "\n") == 1 + 2 * 20);
  }

  {  // submitter logs: the submitter Job's pod
    answer submitter = http_get(live.url(), "/api/v1/kuberay/rayjobs/ml/train/logs?role=submitter");
    CHECK(submitter.status == 200);
    CHECK(submitter.text == "[pod/train-abcde] Job 'train' submitted\n");
  }

  {  // follow: new lines arrive while the answer is open; the client leaving closes the kubelet's stream
    stream_reader reader(live.url(), base + "?role=head&follow=true");
    REQUIRE(reader.status() == 200);
    CHECK(reader.header(http::field::content_type) == "text/plain; charset=utf-8");
    REQUIRE(reader.read_until("head line 5\n"));
    REQUIRE(eventually([&] { return kubelet.open_follows() == 1; }));
    kubelet.append(ns, "logs-head", "ray-head", "a line written later\n");
    CHECK(reader.read_until("head line 5\na line written later\n"));
    CHECK_FALSE(reader.ended());
    const int closed_before = kubelet.closed_by_peer();
    reader.close();
    // The daemon notices, cancels its read from the API server, which closes its kubelet stream.
    CHECK(eventually([&] { return kubelet.closed_by_peer() == closed_before + 1; }));
    CHECK(eventually([&] { return kubelet.open_follows() == 0; }));
  }

  {  // an upstream that breaks mid-stream: the answer says so, then ends cleanly
    stream_reader reader(live.url(), base + "?role=workers&follow=true");
    REQUIRE(reader.status() == 200);
    REQUIRE(reader.read_until("[pod/logs-worker-19] second line\n"));
    REQUIRE(eventually([&] { return kubelet.open_follows() == 20; }));
    kubelet.break_streams(ns, "logs-worker-03");
    CHECK(reader.read_until("[sextant] the API server ended the log of pod logs-worker-03"));
    CHECK_FALSE(reader.ended());
    // The other 19 go on.
    kubelet.append(ns, "logs-worker-04", "ray-worker", "still here\n");
    CHECK(reader.read_until("[pod/logs-worker-04] still here\n"));
    for (int i = 0; i < 20; ++i) {
      if (i != 3) {
        kubelet.break_streams(ns, worker_name(i));
      }
    }
    CHECK(reader.read_to_end());
    CHECK(count_of(reader.body(), "[sextant] the API server ended the log of pod") == 20);
    CHECK(eventually([&] { return kubelet.open_follows() == 0; }));
  }

  {  // errors: an unknown role, a missing cluster, a parameter no log route takes
    CHECK(http_get(live.url(), base + "?role=tail").status == 400);
    CHECK(http_get(live.url(), base + "?role=head&since=5m").status == 400);
    answer missing = http_get(live.url(), "/api/v1/kuberay/rayclusters/ml/nope/logs?role=head");
    CHECK(missing.status == 404);
    CHECK(missing.body()["error"]["reason"] == "NotFound");
  }
}
