#pragma once
// One real etcd + kube-apiserver for a test: tests/apiserver's `testcluster`, started in a
// scratch folder and stopped (SIGTERM) with the object, with the upstream controllers the test
// asks for. The folder (logs included) is kept when the test failed, and its path printed. It writes kubeconfigs for a
// token, a client certificate, a reader without RBAC and a wrong CA, the CA and tokens, and has a control port that
// compacts etcd or restarts the apiserver.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "admin_client.hpp"

namespace sextant::integration {

struct cluster_options {
  std::vector<std::string> crds{};        // folders of CRDs installed before the cluster is ready
  bool watch_cache = true;                // false: every watch is served by etcd (compaction shows)
  std::vector<std::string> extra_args{};  // more testcluster flags, e.g. "--dra-versions=v1beta1"
  // Upstream controllers started beside the apiserver: "kube-scheduler",
  // "kube-controller-manager" (the Job, garbage-collector, ResourceClaim, namespace,
  // service-account, Deployment, ReplicaSet and DaemonSet controllers), "kueue", "jobset",
  // "kuberay", "kserve" and "gpu-operator" (the operators' own binaries, tests/controllers/; their
  // CRDs are added, and Kueue's, JobSet's and KServe's webhooks are registered and answering
  // before the cluster is ready). Each logs to DIR/cluster/<name>.log.
  std::vector<std::string> controllers{};
};

class test_cluster {
 public:
  explicit test_cluster(cluster_options options = {});
  ~test_cluster();
  test_cluster(const test_cluster&) = delete;
  test_cluster& operator=(const test_cluster&) = delete;

  // A value of cluster.env: SERVER, CONTROL, CA_CRT, KUBECONFIG_TOKEN, ADMIN_TOKEN_FILE, ...
  std::string env(const std::string& key) const;
  const std::filesystem::path& dir() const { return dir_; }
  std::string server() const { return env("SERVER"); }
  std::string admin_token() const;
  admin_client admin() const;

  // Compacts etcd at its current revision; returns the revision.
  long long compact();
  // Stops the apiserver (SIGTERM, or SIGKILL when `kill`) and starts it again (etcd keeps
  // running); returns when it is ready.
  void restart_apiserver(bool kill = false);
  // Stops etcd, leaves it down for `down`, and starts it again on the same ports and data; the
  // apiserver keeps running and reconnects. Returns when etcd is ready.
  void restart_etcd(std::chrono::milliseconds down);

 private:
  std::filesystem::path dir_;
  pid_t pid_ = -1;
  std::map<std::string, std::string> env_;
};

// The CRDs of one operator ("kueue", "jobset", "kuberay", "training-operator", "lws", ...) from its
// Go module at the version tests/upstream/go.mod pins (see support/upstream_files.hpp).
std::filesystem::path upstream_crds(const std::string& name);
std::filesystem::path fixture(const std::string& name);
// tests/controllers/bin/<name>, built by tests/controllers/build.sh (ctest: kube_controllers_build).
std::filesystem::path controller_binary(const std::string& name);
// Whether the running test case has failed an assertion so far (integration_main's listener).
bool current_test_failed();
std::string read_text(const std::filesystem::path& path);
void write_text(const std::filesystem::path& path, const std::string& text);

}  // namespace sextant::integration
