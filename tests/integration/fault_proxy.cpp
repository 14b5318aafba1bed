#include "fault_proxy.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "spawn_logged.hpp"

namespace sextant::integration {
namespace fs = std::filesystem;

fault_proxy::fault_proxy(const test_cluster& cluster) : dir_(cluster.dir() / "faultproxy") {
  std::vector<std::string> args{SEXTANT_FAULTPROXY,    "--dir",         dir_.string(),        "--upstream",
                                cluster.env("SERVER"), "--upstream-ca", cluster.env("CA_CRT")};
  fs::create_directories(dir_);
  const fs::path log = dir_ / "faultproxy.log";
  pid_ = spawn_logged(std::move(args), log);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!fs::exists(dir_ / "ready")) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("faultproxy exited during start-up:\n" + read_text(log));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("faultproxy not ready after 20 s:\n" + read_text(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::istringstream lines(read_text(dir_ / "proxy.env"));
  for (std::string line; std::getline(lines, line);) {
    if (auto eq = line.find('='); eq != std::string::npos) {
      env_[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
}

fault_proxy::~fault_proxy() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

kube::connection_config fault_proxy::through(kube::connection_config config) const {
  config.server = *kube::parse_url(env_.at("URL")).value;
  config.ca_pem = read_text(env_.at("CA_CRT"));
  config.ca_file = env_.at("CA_CRT");  // not the cluster's: a CA re-read must find the proxy's
  config.tls_server_name.clear();
  return config;
}

std::filesystem::path fault_proxy::kubeconfig_with(const std::string& token) const {
  const std::filesystem::path path = dir_ / "kubeconfig-proxy.yaml";
  write_text(path, "apiVersion: v1\nkind: Config\nclusters:\n- name: proxy\n  cluster:\n    server: " + env_.at("URL") +
                       "\n    certificate-authority: " + env_.at("CA_CRT") +
                       "\nusers:\n- name: admin\n  user:\n    token: " + token +
                       "\ncontexts:\n- name: proxy\n  context:\n    cluster: proxy\n    user: admin\n"
                       "current-context: proxy\n");
  return path;
}

void fault_proxy::arm(const std::string& query) {
  answer armed = control_post(env_.at("CONTROL"), "/fault?" + query);
  if (!armed.ok()) {
    throw std::runtime_error("faultproxy /fault?" + query + ": " + std::to_string(armed.status) + " " + armed.text +
                             armed.error);
  }
}

void fault_proxy::refuse(const std::string& path, const std::string& verb, int count, int code, int retry_after) {
  arm("kind=status&match=" + path + "&verb=" + verb + "&count=" + std::to_string(count) +
      "&code=" + std::to_string(code) + "&retryAfter=" + std::to_string(retry_after));
}

void fault_proxy::stall(const std::string& path, int count) {
  arm("kind=stall&match=" + path + "&count=" + std::to_string(count));
}

void fault_proxy::cut(const std::string& path, int count) {
  arm("kind=cut&match=" + path + "&count=" + std::to_string(count));
}

void fault_proxy::hang(const std::string& path, int count) {
  arm("kind=hang&match=" + path + "&count=" + std::to_string(count));
}

void fault_proxy::reset(const std::string& path, int count) {
  arm("kind=reset&match=" + path + "&count=" + std::to_string(count));
}

void fault_proxy::hide(const std::string& group) {
  arm("kind=hide&match=" + group);
}

void fault_proxy::clear() {
  answer cleared = control_post(env_.at("CONTROL"), "/clear");
  if (!cleared.ok()) {
    throw std::runtime_error("faultproxy /clear: " + std::to_string(cleared.status) + cleared.error);
  }
}

int fault_proxy::drop_watches() {
  answer dropped = control_post(env_.at("CONTROL"), "/drop");
  if (!dropped.ok()) {
    throw std::runtime_error("faultproxy /drop: " + std::to_string(dropped.status) + dropped.error);
  }
  return dropped.body().value("dropped", 0);
}

std::vector<proxied_request> fault_proxy::requests() const {
  answer listed = http_get(env_.at("CONTROL"), "/requests");
  if (!listed.ok()) {
    throw std::runtime_error("faultproxy /requests: " + std::to_string(listed.status) + listed.error);
  }
  std::vector<proxied_request> out;
  json all = listed.body();
  if (!all.is_array()) {
    return out;
  }
  for (const json& r : all) {
    out.push_back(proxied_request{r.value("id", 0), r.value("ms", 0LL), r.value("path", ""), r.value("query", ""),
                                  r.value("watch", false), r.value("status", 0), r.value("fault", ""),
                                  r.value("retryAfter", 0), r.value("stallMs", -1LL), r.value("endMs", -1LL)});
  }
  return out;
}

std::vector<proxied_request> requests_to(const std::vector<proxied_request>& all, const std::string& path,
                                         std::optional<bool> watch, long long since_ms) {
  std::vector<proxied_request> out;
  for (const proxied_request& r : all) {
    if (r.path == path && (!watch || r.watch == *watch) && r.ms >= since_ms) {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace sextant::integration
