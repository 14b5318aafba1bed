// The long run of issue 35 (bench/soak/run.sh, never run by ctest: the tag is hidden): a real
// daemon behind the fault proxy, watching a cluster with a scheduler, the controller manager
// and Kueue, while objects churn at tens of writes a second, eight front-ends poll, /metrics
// is scraped every 15 s and the faults of rows 1-4 come in rotation. Every 10 s a row of
// samples.csv records the daemon's memory, open files, loop lag, problems, cache and
// readiness; at the end the daemon's lists must equal the server's and a problem that lasted
// throughout must keep the time it began. bench/soak/run.sh judges flatness from the rows.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <sstream>
#include <thread>

#include <catch2/catch.hpp>

#include "churn.hpp"
#include "daemon_sample.hpp"
#include "fault_proxy.hpp"
#include "live_objects.hpp"
#include "sextantd_process.hpp"
#include "soak_readers.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;
namespace fs = std::filesystem;
using std::chrono::seconds;

namespace {

// The knobs bench/soak/run.sh passes (SOAK_*), with the figures as defaults.
struct soak_settings {
  double minutes = 30;
  int fault_every_s = 180;
  int churn_per_second = 20;
  std::size_t population_cap = 200;  // Pods (and Jobs) the churn keeps at most
  reader_options readers;
  fs::path out = "build-soak";
};

double env_number(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') {
    return fallback;
  }
  try {
    return std::stod(text);
  } catch (const std::exception&) {
    FAIL(name << " must be a number, not \"" << text << "\"");
  }
  return fallback;
}

soak_settings settings_from_env() {
  soak_settings s;
  s.minutes = env_number("SOAK_MINUTES", s.minutes);
  s.fault_every_s = static_cast<int>(env_number("SOAK_FAULT_EVERY", s.fault_every_s));
  s.churn_per_second = static_cast<int>(env_number("SOAK_CHURN_PER_SECOND", s.churn_per_second));
  s.population_cap = static_cast<std::size_t>(env_number("SOAK_POPULATION", static_cast<double>(s.population_cap)));
  s.readers.frontends = static_cast<int>(env_number("SOAK_FRONTENDS", s.readers.frontends));
  s.readers.poll_every = std::chrono::milliseconds(static_cast<long>(env_number("SOAK_POLL_MS", 2000)));
  if (const char* out = std::getenv("SOAK_OUT"); out != nullptr && *out != '\0') {
    s.out = out;
  }
  REQUIRE(s.minutes > 0);
  REQUIRE(s.fault_every_s >= 10);
  REQUIRE(s.churn_per_second > 0);
  return s;
}

const std::string v1beta2 = "kueue.x-k8s.io/v1beta2";
const std::string kueue_api = "/apis/kueue.x-k8s.io/v1beta2";
// A ClusterQueue naming a flavor that does not exist: Kueue keeps it inactive, a problem of
// kueue-queues from before the first fault to after the last.
const std::string lasting_queue = "flavorless-queue";

// Queues for the problems and statuses the front-ends read: one that admits, one held, one
// that cannot work.
void create_queues(admin_client& admin) {
  create(admin, kueue_api + "/resourceflavors",
         {{"apiVersion", v1beta2}, {"kind", "ResourceFlavor"}, {"metadata", {{"name", "default-flavor"}}}});
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue("cluster-queue", "default-flavor", "4", false));
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue("held-queue", "default-flavor", "4", true));
  create(admin, kueue_api + "/clusterqueues", kueue_cluster_queue(lasting_queue, "missing-flavor", "4", false));
}

// The daemon's problem about the lasting queue, or null.
json lasting_problem(const json& problems) {
  if (!problems.is_object()) {
    return json();
  }
  for (const json& p : problems.value("problems", json::array())) {
    if (p.value("kind", "") == "ClusterQueue" && p.value("name", "") == lasting_queue) {
      return p;
    }
  }
  return json();
}

// A kubeconfig that sends a daemon process through the proxy with the admin's token (the
// daemon only ever reads).
fs::path proxy_kubeconfig(const test_cluster& cluster, const fault_proxy& proxy) {
  const fs::path path = cluster.dir() / "kubeconfig-proxy.yaml";
  write_text(path,
             "apiVersion: v1\nkind: Config\ncurrent-context: soak\nclusters:\n- name: proxy\n  cluster:\n"
             "    server: " +
                 proxy.url() + "\n    certificate-authority: " + proxy.ca_file() +
                 "\nusers:\n- name: admin\n  user:\n    token: " + cluster.admin_token() +
                 "\ncontexts:\n- name: soak\n  context: {cluster: proxy, user: admin}\n");
  return path;
}

struct fault {
  std::string name;
  std::function<void()> inject;
};

// Rows 1-4 of the matrix, in the order they come round.
std::vector<fault> fault_rotation(test_cluster& cluster, fault_proxy& proxy) {
  auto etcd_done = std::make_shared<bool>(false);
  return {
      {"apiserver restarted (SIGTERM)", [&cluster] { cluster.restart_apiserver(false); }},
      {"etcd compacted, every watch dropped: 410 on resume",
       [&cluster, &proxy] {
         cluster.compact();
         proxy.drop_watches();
       }},
      {"watch of Pods stalls without closing", [&proxy] { proxy.stall("/api/v1/pods"); }},
      {"connection reset mid-event (Pods, Jobs)",
       [&proxy] {
         proxy.cut("/api/v1/pods");
         proxy.cut("/apis/batch/v1/jobs");
       }},
      {"429 Retry-After 3 s on the next 20 requests, watches dropped",
       [&proxy] {
         proxy.refuse("", "any", 20, 429, 3);
         proxy.drop_watches();
       }},
      {"500 x15 then 503 x15, watches dropped",
       [&proxy] {
         proxy.refuse("", "any", 15, 500);
         proxy.refuse("", "any", 15, 503);
         proxy.drop_watches();
       }},
      {"apiserver killed (SIGKILL), the first time with etcd down 3 s before",
       [&cluster, etcd_done] {
         if (!*etcd_done) {
           *etcd_done = true;
           cluster.restart_etcd(seconds(3));
         }
         cluster.restart_apiserver(true);
       }},
  };
}

// namespace/name -> uid of every item of a daemon list, or nullopt when the list is not whole.
std::optional<std::map<std::string, std::string>> daemon_listed(const std::string& url, const std::string& path) {
  answer got = http_get(url, path);
  json body = got.body();
  if (got.status != 200 || !body.is_object() || body.value("incomplete", true)) {
    return std::nullopt;
  }
  std::map<std::string, std::string> out;
  for (const json& item : body.value("items", json::array())) {
    out[item.value("namespace", "") + "/" + item.value("name", "")] = item.value("uid", "");
  }
  return out;
}

std::map<std::string, std::string> server_listed(admin_client& admin, const std::string& path) {
  std::map<std::string, std::string> out;
  json body = get_object(admin, path);
  for (const json& item : body.is_object() ? body.value("items", json::array()) : json::array()) {
    const json& meta = item["metadata"];
    out[meta.value("namespace", "") + "/" + meta.value("name", "")] = meta.value("uid", "");
  }
  return out;
}

// Lines saying where two name -> uid maps differ (at most 20).
std::vector<std::string> uid_differences(const std::map<std::string, std::string>& daemon,
                                         const std::map<std::string, std::string>& server) {
  std::vector<std::string> out;
  for (const auto& [key, uid] : server) {
    auto it = daemon.find(key);
    if (it == daemon.end()) {
      out.push_back(key + ": on the server, not in the daemon");
    } else if (it->second != uid) {
      out.push_back(key + ": uid " + it->second + " in the daemon, " + uid + " on the server");
    }
  }
  for (const auto& [key, uid] : daemon) {
    if (!server.contains(key)) {
      out.push_back(key + ": in the daemon, gone from the server");
    }
  }
  out.resize(std::min<std::size_t>(out.size(), 20));
  return out;
}

class sample_writer {
 public:
  sample_writer(const fs::path& file, const sextantd_process& daemon) : out_(file), daemon_(daemon) {
    out_ << "elapsed_s,rss_kb,open_fds,lag_mean_ms,lag_p99_ms,max_stall_ms,problems,cached_objects,ready,"
            "out_of_date_kinds,lasting_problem,requests,not_modified,failed,scrapes,writes,view_cache_kb\n";
  }

  // One row; returns the lasting problem as the daemon showed it (null when absent).
  json write(double elapsed, const soak_readers& readers, const background_churn& churn) {
    const process_usage usage = usage_of(daemon_.pid());
    const auto series = parse_exposition(http_get(daemon_.url(), "/metrics").text);
    const histogram_reading lag = histogram_of(series, "sextant_event_loop_lag_seconds");
    const interval_figures lag_now = between(last_lag_, lag);
    last_lag_ = lag;
    const json problems = http_get(daemon_.url(), "/api/v1/problems").body();
    const answer ready = http_get(daemon_.url(), "/readyz");
    int out_of_date = 0;
    for (std::size_t at = ready.text.find("may be out of date"); at != std::string::npos;
         at = ready.text.find("may be out of date", at + 1)) {
      ++out_of_date;
    }
    const json lasting = lasting_problem(problems);
    out_ << elapsed << ',' << usage.rss_kb << ',' << usage.open_fds << ',' << lag_now.mean * 1000 << ','
         << lag_now.p99_bound * 1000 << ',' << sum_of(series, "sextant_event_loop_max_stall_seconds") * 1000 << ','
         << (problems.is_object() ? problems.value("problems", json::array()).size() : 0) << ','
         << sum_of(series, "sextant_cached_objects") << ',' << (ready.status == 200 ? 1 : 0) << ',' << out_of_date
         << ',' << (lasting.is_object() ? 1 : 0) << ',' << readers.requests() << ',' << readers.not_modified() << ','
         << readers.failed() << ',' << readers.scrapes() << ',' << churn.attempted() << ','
         << sum_of(series, "sextant_view_cache_bytes") / 1024 << std::endl;
    return lasting;
  }

 private:
  std::ofstream out_;
  const sextantd_process& daemon_;
  histogram_reading last_lag_;
};

}  // namespace

TEST_CASE("soak: churn, front-ends, scrapes and faults for MINUTES; flat, and the cache equal to the server",
          "[.soak]") {
  const soak_settings settings = settings_from_env();
  fs::create_directories(settings.out);
  std::ofstream faults_log(settings.out / "faults.csv");
  faults_log << "start_s,end_s,fault\n";
  std::ofstream result(settings.out / "result.txt");

  test_cluster cluster({.watch_cache = false, .controllers = {"kube-scheduler", "kube-controller-manager", "kueue"}});
  admin_client admin = cluster.admin();
  create_churn_namespaces(admin);
  create_queues(admin);
  const json inactive =
      wait_for([&] { return get_object(admin, kueue_api + "/clusterqueues/" + lasting_queue); },
               [](const json& q) { return condition_of(q, "Active").value("status", "") == "False"; });
  const std::string began_on_server = condition_of(inactive, "Active").value("lastTransitionTime", "");
  REQUIRE_FALSE(began_on_server.empty());

  fault_proxy proxy(cluster);
  sextantd_process daemon({"--kubeconfig", proxy_kubeconfig(cluster, proxy).string()}, settings.out / "sextantd.log");
  REQUIRE(daemon.wait_ready(seconds(120)));
  const json first = wait_for([&] { return daemon.get("/api/v1/problems"); },
                              [](const json& p) { return lasting_problem(p).is_object(); },
                              seconds(200));  // a queue is a problem after 2 minutes inactive
  const std::string began = lasting_problem(first).value("since", "");
  INFO("the lasting problem as first shown: " << lasting_problem(first).dump());
  REQUIRE_FALSE(began.empty());

  background_churn churn(cluster.server(), cluster.env("CA_CRT"), cluster.admin_token(), 2026,
                         settings.churn_per_second, settings.population_cap);
  soak_readers readers(daemon.url(), settings.readers);
  sample_writer samples(settings.out / "samples.csv", daemon);
  std::vector<fault> rotation = fault_rotation(cluster, proxy);

  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  const auto end = start + std::chrono::milliseconds(static_cast<long>(settings.minutes * 60'000));
  auto next_sample = start;
  auto next_fault = start + seconds(settings.fault_every_s);
  std::size_t faults_injected = 0;
  int lasting_absent = 0;
  int lasting_moved = 0;
  std::string fault_errors;
  std::future<void> running;  // the fault under way: a restart takes seconds, sampling goes on
  double running_since = 0;
  std::string running_name;
  auto finish_fault = [&] {
    try {
      running.get();
    } catch (const std::exception& error) {
      fault_errors += running_name + ": " + error.what() + "\n";
    }
    faults_log << running_since << ',' << elapsed() << ",\"" << running_name << "\"" << std::endl;
  };
  while (std::chrono::steady_clock::now() < end) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_sample) {
      json lasting = samples.write(elapsed(), readers, churn);
      lasting_absent += lasting.is_object() ? 0 : 1;
      lasting_moved += lasting.is_object() && lasting.value("since", "") != began ? 1 : 0;
      next_sample += seconds(10);
    }
    if (running.valid() && running.wait_for(seconds(0)) == std::future_status::ready) {
      finish_fault();
    }
    if (now >= next_fault && !running.valid()) {
      const fault& chosen = rotation[faults_injected++ % rotation.size()];
      running_since = elapsed();
      running_name = chosen.name;
      running = std::async(std::launch::async, chosen.inject);
      next_fault += seconds(settings.fault_every_s);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  if (running.valid()) {
    finish_fault();
  }

  // The end: no more writes; the daemon must come to exactly what the server holds.
  churn.stop();
  const double stopped_at = elapsed();
  std::vector<std::string> differences = {"not compared yet"};
  std::size_t pods = 0;
  std::size_t jobs = 0;
  while (!differences.empty() && elapsed() - stopped_at < 300) {
    differences.clear();
    const auto server_pods = server_listed(admin, "/api/v1/pods");
    const auto server_jobs = server_listed(admin, "/apis/batch/v1/jobs");
    const auto daemon_pods = daemon_listed(daemon.url(), "/api/v1/core/pods");
    const auto daemon_jobs = daemon_listed(daemon.url(), "/api/v1/core/jobs");
    if (!daemon_pods || !daemon_jobs) {
      differences.push_back("a list of the daemon is not whole (incomplete or no answer)");
    } else {
      for (const std::string& d : uid_differences(*daemon_pods, server_pods)) {
        differences.push_back("Pod " + d);
      }
      for (const std::string& d : uid_differences(*daemon_jobs, server_jobs)) {
        differences.push_back("Job " + d);
      }
    }
    pods = server_pods.size();
    jobs = server_jobs.size();
    if (!differences.empty()) {
      std::this_thread::sleep_for(seconds(2));
    }
  }
  const double converged_after = elapsed() - stopped_at;
  // Other kinds than Pods and Jobs may still be in a backoff of the last fault: give them the
  // rest of the time to say nothing is out of date.
  answer ready = http_get(daemon.url(), "/readyz");
  while ((ready.status != 200 || ready.text.find("may be out of date") != std::string::npos) &&
         elapsed() - stopped_at < 300) {
    std::this_thread::sleep_for(seconds(2));
    ready = http_get(daemon.url(), "/readyz");
  }
  const json lasting_end = lasting_problem(daemon.get("/api/v1/problems"));
  samples.write(elapsed(), readers, churn);
  readers.stop();

  result << "minutes=" << settings.minutes << "\nfault_every_s=" << settings.fault_every_s
         << "\nchurn_per_second=" << settings.churn_per_second << "\nwrites_attempted=" << churn.attempted()
         << "\nfrontends=" << settings.readers.frontends << "\nrequests=" << readers.requests()
         << "\nnot_modified=" << readers.not_modified() << "\nfailed_requests=" << readers.failed()
         << "\nscrapes=" << readers.scrapes() << "\nfaults_injected=" << faults_injected
         << "\nconverged=" << (differences.empty() ? "yes" : "no") << "\nconverged_after_s=" << converged_after
         << "\nserver_pods=" << pods << "\nserver_jobs=" << jobs << "\nready_at_end=" << ready.status
         << "\nout_of_date_at_end=" << (ready.text.find("may be out of date") != std::string::npos ? "yes" : "no")
         << "\nlasting_problem_since_first=" << began
         << "\nlasting_problem_since_end=" << (lasting_end.is_object() ? lasting_end.value("since", "") : "(absent)")
         << "\nlasting_problem_began_on_server=" << began_on_server
         << "\nlasting_problem_absent_samples=" << lasting_absent
         << "\nlasting_problem_since_moved_samples=" << lasting_moved << "\n";
  for (const std::string& d : differences) {
    result << "difference=" << d << "\n";
  }
  std::istringstream fault_lines(fault_errors);
  for (std::string line; std::getline(fault_lines, line);) {
    result << "fault_error=" << line << "\n";
  }
  result.flush();

  INFO(fault_errors);
  CHECK(fault_errors.empty());
  INFO(differences.size() << " differences, the first: " << (differences.empty() ? "" : differences.front()));
  CHECK(differences.empty());
  CHECK(ready.status == 200);
  CHECK(ready.text.find("may be out of date") == std::string::npos);
  // The problem lasted throughout: never dropped, never restarted, and dated as the server says.
  CHECK(lasting_absent == 0);
  CHECK(lasting_moved == 0);
  REQUIRE(lasting_end.is_object());
  CHECK(lasting_end.value("since", "") == began);
  CHECK(began == began_on_server);
  CHECK(faults_injected >= 1);
}
