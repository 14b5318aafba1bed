#pragma once
// Churn as a busy cluster makes it: Pods and Jobs created, relabelled and deleted in two
// namespaces, on the test's thread or on one of its own. A fault test then checks with
// `converges` (live_harness.hpp) that the cache holds exactly what the server lists.
#include <atomic>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "admin_client.hpp"
#include "live_harness.hpp"

namespace sextant::integration {

// What the churn has made and not deleted yet ("namespace/name").
struct churn_state {
  std::vector<std::string> pods;
  std::vector<std::string> jobs;
};

// The namespaces the churn writes in; created by create_churn_namespaces.
inline const std::vector<std::string> churn_namespaces = {"a", "b"};
void create_churn_namespaces(admin_client& admin);

// One write: a create (Pod or Job), a label update or a delete, chosen by `random`. A write the
// server refuses (it is restarting, say) is lost, as a real client's would be.
void churn_step(admin_client& admin, std::mt19937& random, churn_state& state, int step);

// The churn on its own thread and client, about `per_second` writes a second, through every
// outage, until stop() or destruction. With a `population_cap`, a step finding more Pods (or
// Jobs) than that made deletes one instead: a steady state for long runs rather than growth.
class background_churn {
 public:
  background_churn(const std::string& server, const std::string& ca_file, const std::string& token, unsigned seed,
                   int per_second, std::size_t population_cap = 0);
  ~background_churn();
  background_churn(const background_churn&) = delete;
  background_churn& operator=(const background_churn&) = delete;

  void stop();
  int attempted() const { return attempted_.load(); }

 private:
  std::atomic<bool> stopping_{false};
  std::atomic<int> attempted_{0};
  std::thread thread_;
};

}  // namespace sextant::integration
