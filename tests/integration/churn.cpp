#include "churn.hpp"

#include <catch2/catch.hpp>

namespace sextant::integration {

namespace {

// "/api/v1/namespaces/a/pods/p1" for "a/p1".
std::string object_path(const std::string& collection_prefix, const std::string& plural, const std::string& key) {
  return collection_prefix + "/namespaces/" + key.substr(0, key.find('/')) + "/" + plural + "/" +
         key.substr(key.find('/') + 1);
}

std::string take_random(std::mt19937& random, std::vector<std::string>& keys) {
  std::size_t index = random() % keys.size();
  std::string key = keys[index];
  keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(index));
  return key;
}

}  // namespace

void create_churn_namespaces(admin_client& admin) {
  for (const std::string& ns : churn_namespaces) {
    REQUIRE(admin.post("/api/v1/namespaces", namespace_object(ns)).ok());
  }
}

void churn_step(admin_client& admin, std::mt19937& random, churn_state& state, int step) {
  const std::string& ns = churn_namespaces[random() % churn_namespaces.size()];
  // Creates outnumber deletes, of Pods and of Jobs alike, so that under a population cap both
  // sit at the cap (a steady state to judge memory on) rather than wander.
  switch (random() % 7) {
    case 0:
    case 1: {
      std::string name = "p" + std::to_string(step);
      if (admin.post("/api/v1/namespaces/" + ns + "/pods", pod_object(ns, name)).ok()) {
        state.pods.push_back(ns + "/" + name);
      }
      break;
    }
    case 2: {
      if (!state.pods.empty()) {
        std::string path = object_path("/api/v1", "pods", state.pods[random() % state.pods.size()]);
        answer current = admin.get(path);
        if (current.ok()) {
          json pod = current.body();
          pod["metadata"]["labels"]["step"] = std::to_string(step);
          admin.put(path, pod);
        }
      }
      break;
    }
    case 3: {
      if (!state.pods.empty()) {
        admin.remove(object_path("/api/v1", "pods", take_random(random, state.pods)));
      }
      break;
    }
    case 4:
    case 5: {
      std::string name = "j" + std::to_string(step);
      if (admin.post("/apis/batch/v1/namespaces/" + ns + "/jobs", job_object(ns, name)).ok()) {
        state.jobs.push_back(ns + "/" + name);
      }
      break;
    }
    default: {
      if (!state.jobs.empty()) {
        admin.remove(object_path("/apis/batch/v1", "jobs", take_random(random, state.jobs)) +
                     "?propagationPolicy=Background");
      }
      break;
    }
  }
}

background_churn::background_churn(const std::string& server, const std::string& ca_file, const std::string& token,
                                   unsigned seed, int per_second, std::size_t population_cap)
    : thread_([this, server, ca_file, token, seed, per_second, population_cap] {
        admin_client admin(server, ca_file, token);
        std::mt19937 random(seed);
        churn_state state;
        const auto pause = std::chrono::microseconds(1'000'000 / per_second);
        for (int step = 0; !stopping_.load(); ++step) {
          const auto next = std::chrono::steady_clock::now() + pause;
          if (population_cap > 0 && state.pods.size() > population_cap) {
            admin.remove(object_path("/api/v1", "pods", take_random(random, state.pods)));
          } else if (population_cap > 0 && state.jobs.size() > population_cap) {
            admin.remove(object_path("/apis/batch/v1", "jobs", take_random(random, state.jobs)) +
                         "?propagationPolicy=Background");
          } else {
            churn_step(admin, random, state, step);
          }
          attempted_.fetch_add(1);
          std::this_thread::sleep_until(next);
        }
      }) {}

background_churn::~background_churn() {
  stop();
}

void background_churn::stop() {
  stopping_.store(true);
  if (thread_.joinable()) {
    thread_.join();
  }
}

}  // namespace sextant::integration
