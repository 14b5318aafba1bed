#include "test_cluster.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "spawn_logged.hpp"
#include "support/upstream_files.hpp"

namespace sextant::integration {
namespace fs = std::filesystem;

std::filesystem::path upstream_crds(const std::string& name) {
  return sextant::testing::upstream_files("crds/" + name);
}

std::filesystem::path controller_binary(const std::string& name) {
  return fs::path(SEXTANT_SOURCE_DIR) / "tests" / "controllers" / "bin" / name;
}

std::filesystem::path fixture(const std::string& name) {
  return fs::path(SEXTANT_SOURCE_DIR) / "tests" / "fixtures" / "kube" / name;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_text(const fs::path& path, const std::string& text) {
  // Replaced by rename, as the kubelet rotates projected tokens.
  fs::path tmp = path.string() + ".tmp";
  std::ofstream(tmp, std::ios::binary) << text;
  fs::rename(tmp, path);
}

namespace {

std::string tail_of(const fs::path& path, std::size_t max_chars) {
  std::string text = read_text(path);
  return text.size() > max_chars ? text.substr(text.size() - max_chars) : text;
}

}  // namespace

test_cluster::test_cluster(cluster_options options) {
  std::string pattern = (fs::temp_directory_path() / "sextant-cluster-XXXXXX").string();
  dir_ = ::mkdtemp(pattern.data());
  std::vector<std::string> args{SEXTANT_TESTCLUSTER, "--dir", (dir_ / "cluster").string()};
  auto add_crds = [&options](const std::string& name) {
    const std::string crds = upstream_crds(name).string();
    if (std::find(options.crds.begin(), options.crds.end(), crds) == options.crds.end()) {
      options.crds.push_back(crds);
    }
  };
  for (const std::string& controller : options.controllers) {
    if (controller == "kueue" || controller == "jobset" || controller == "kuberay" || controller == "kserve" ||
        controller == "gpu-operator") {
      // The operator's own binary (tests/controllers/build.sh), with its CRDs of the same version
      // and, for Kueue, JobSet and KServe, its webhook manifests, which testcluster registers by URL.
      args.push_back("--" + controller);
      args.push_back(controller_binary(controller).string());
      if (controller == "kueue" || controller == "jobset" || controller == "kserve") {
        args.push_back("--" + controller + "-webhooks");
        args.push_back(sextant::testing::upstream_files("webhooks/" + controller).string());
      }
      if (controller == "kserve") {
        // The ConfigMap KServe reads, and the CRDs only its controller reads.
        args.push_back("--kserve-config");
        args.push_back(sextant::testing::upstream_files("config/kserve").string());
        add_crds("kserve-controller");
      }
      if (controller == "gpu-operator") {
        args.push_back("--gpu-operator-assets");
        args.push_back(controller_binary("gpu-operator-assets").string());
      }
      add_crds(controller);
    } else {
      args.push_back("--controllers");
      args.push_back(controller);
    }
  }
  for (const std::string& crds : options.crds) {
    args.push_back("--crds");
    args.push_back(crds);
  }
  if (!options.watch_cache) {
    args.push_back("--watch-cache=false");
  }
  args.insert(args.end(), options.extra_args.begin(), options.extra_args.end());
  const fs::path log = dir_ / "testcluster.log";
  pid_ = spawn_logged(std::move(args), log);
  const fs::path ready = dir_ / "cluster" / "ready";
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(4);
  while (!fs::exists(ready)) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("testcluster exited during start-up:\n" + tail_of(log, 3000));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      throw std::runtime_error("testcluster not ready after 4 minutes:\n" + tail_of(log, 3000));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::istringstream lines(read_text(dir_ / "cluster" / "cluster.env"));
  for (std::string line; std::getline(lines, line);) {
    auto eq = line.find('=');
    if (eq != std::string::npos) {
      env_[line.substr(0, eq)] = line.substr(eq + 1);
    }
  }
}

test_cluster::~test_cluster() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (::waitpid(pid_, &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  if (current_test_failed() || std::uncaught_exceptions() > 0) {
    // What the apiserver and the controllers said is what explains a failure: keep it.
    std::fprintf(stderr, "test failed: the cluster's folder and logs are kept in %s\n", dir_.c_str());
    return;
  }
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

std::string test_cluster::env(const std::string& key) const {
  auto it = env_.find(key);
  if (it == env_.end()) {
    throw std::runtime_error("cluster.env has no " + key);
  }
  return it->second;
}

std::string test_cluster::admin_token() const {
  return read_text(env("ADMIN_TOKEN_FILE"));
}

admin_client test_cluster::admin() const {
  return admin_client(server(), env("CA_CRT"), admin_token());
}

long long test_cluster::compact() {
  answer done = control_post(env("CONTROL"), "/compact");
  if (!done.ok()) {
    throw std::runtime_error("compact: " + std::to_string(done.status) + " " + done.text + done.error);
  }
  return done.body().value("revision", 0LL);
}

void test_cluster::restart_apiserver(bool kill) {
  answer done = control_post(env("CONTROL"), kill ? "/restart-apiserver?signal=KILL" : "/restart-apiserver");
  if (!done.ok()) {
    throw std::runtime_error("restart-apiserver: " + std::to_string(done.status) + " " + done.text + done.error);
  }
}

void test_cluster::restart_etcd(std::chrono::milliseconds down) {
  const std::string seconds = std::to_string(static_cast<double>(down.count()) / 1000.0);
  answer done = control_post(env("CONTROL"), "/restart-etcd?downSeconds=" + seconds);
  if (!done.ok()) {
    throw std::runtime_error("restart-etcd: " + std::to_string(done.status) + " " + done.text + done.error);
  }
}

}  // namespace sextant::integration
