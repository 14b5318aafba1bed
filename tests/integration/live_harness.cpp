#include "live_harness.hpp"

#include <stdexcept>
#include <thread>

#include <catch2/catch.hpp>

#include "kube/kubeconfig.hpp"
#include "runtime/watch_plan.hpp"

namespace sextant::integration {

kube::live_options fast_options() {
  kube::live_options options;
  options.discovery_interval = std::chrono::seconds(1);
  options.demand_ttl = std::chrono::seconds(3);
  options.reflector.backoff.initial = std::chrono::milliseconds(100);
  options.reflector.backoff.cap = std::chrono::milliseconds(1000);
  return options;
}

kube::connection_config kubeconfig(const std::string& path, const std::string& context) {
  kube::kubeconfig_sources sources;
  sources.explicit_path = path;
  kube::config_result result = kube::load_kubeconfig(sources, context);
  if (!result.value) {
    throw std::runtime_error(result.error);
  }
  return std::move(*result.value);
}

live_harness::live_harness(kube::connection_config config, std::vector<section> sections, kube::live_options options) {
  ingest_profiles profiles;
  for (const section& s : sections) {
    for (const resource_def& r : s.resources) {
      if (r.profile && !r.type.kind.empty()) {
        profiles.set(r.type, *r.profile);
      }
    }
  }
  live =
      std::make_unique<kube::live_source>(io.get_executor(), std::move(config), watch_planner_for(std::move(sections)),
                                          std::move(profiles), store, served, metrics, wall, options);
  if (std::string error = live->init(); !error.empty()) {
    throw std::runtime_error(error);
  }
  live->start();
}

live_harness::~live_harness() {
  live->stop();
  run_until([this] { return live->finished(); }, std::chrono::seconds(10));
  run_for(std::chrono::milliseconds(50));  // let the stopped watches unwind
}

bool live_harness::run_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    io.restart();
    io.run_for(std::chrono::milliseconds(5));
  }
  return true;
}

void live_harness::run_for(std::chrono::milliseconds duration) {
  io.restart();
  io.run_for(duration);
}

std::map<std::string, std::string> live_harness::cached(const kind_key& type) const {
  std::map<std::string, std::string> out;
  for (const object_ptr& object : store.list(type)) {
    out[object->key()] = object->resource_version;
  }
  return out;
}

std::map<std::string, std::string> listed(admin_client& admin, const std::string& path) {
  answer list = admin.get(path);
  if (!list.ok()) {
    throw std::runtime_error("GET " + path + ": " + std::to_string(list.status) + " " + list.text + list.error);
  }
  std::map<std::string, std::string> out;
  for (const json& item : list.body().value("items", json::array())) {
    std::string namespace_ = string_or(item, {"metadata", "namespace"});
    std::string name = string_or(item, {"metadata", "name"});
    out[namespace_.empty() ? name : namespace_ + "/" + name] = string_or(item, {"metadata", "resourceVersion"});
  }
  return out;
}

bool converges(live_harness& live, admin_client& admin, std::chrono::seconds limit) {
  const kind_key pods{"", "Pod"};
  const kind_key jobs{"batch", "Job"};
  auto listed_pods = listed(admin, "/api/v1/pods");
  auto listed_jobs = listed(admin, "/apis/batch/v1/jobs");
  bool equal =
      live.run_until([&] { return live.cached(pods) == listed_pods && live.cached(jobs) == listed_jobs; }, limit);
  CHECK(live.cached(pods) == listed_pods);
  CHECK(live.cached(jobs) == listed_jobs);
  return equal;
}

void create_pods(admin_client& admin, const std::string& ns, const std::string& prefix, int count) {
  for (int i = 0; i < count; ++i) {
    answer created = admin.post("/api/v1/namespaces/" + ns + "/pods", pod_object(ns, prefix + std::to_string(i)));
    REQUIRE(created.ok());
  }
}

json namespace_object(const std::string& name) {
  return json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}};
}

json pod_object(const std::string& namespace_, const std::string& name, const json& labels) {
  return json{{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", namespace_}, {"labels", labels}}},
              {"spec", {{"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}}}};
}

json node_object(const std::string& name) {
  return json{{"apiVersion", "v1"},
              {"kind", "Node"},
              {"metadata", {{"name", name}, {"labels", {{"nvidia.com/gpu.present", "true"}}}}}};
}

json job_object(const std::string& namespace_, const std::string& name) {
  json pod_spec{{"restartPolicy", "Never"},
                {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}};
  return json{{"apiVersion", "batch/v1"},
              {"kind", "Job"},
              {"metadata", {{"name", name}, {"namespace", namespace_}}},
              {"spec", {{"template", {{"spec", pod_spec}}}}}};
}

std::vector<std::string> create_all(const std::string& server, const std::string& ca_file, const std::string& token,
                                    const std::vector<std::pair<std::string, json>>& objects, int threads) {
  std::vector<std::vector<std::string>> errors(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      admin_client admin(server, ca_file, token);
      for (std::size_t i = static_cast<std::size_t>(t); i < objects.size(); i += static_cast<std::size_t>(threads)) {
        answer created = admin.post(objects[i].first, objects[i].second);
        if (!created.ok()) {
          errors[static_cast<std::size_t>(t)].push_back("POST " + objects[i].first + ": " +
                                                        std::to_string(created.status) + " " +
                                                        created.text.substr(0, 300) + created.error);
        }
      }
    });
  }
  for (std::thread& worker : workers) {
    worker.join();
  }
  std::vector<std::string> out;
  for (auto& e : errors) {
    out.insert(out.end(), e.begin(), e.end());
  }
  return out;
}

}  // namespace sextant::integration
