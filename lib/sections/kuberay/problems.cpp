// The `kuberay` problem category: a failed Ray Cluster or one whose head is not ready, a failed
// Ray Job for a day from its failure, a Ray Service not ready or with an unhealthy Serve
// application. Messages come from the readings, whose texts are masked.
#include <chrono>

#include "sections/common/objects.hpp"
#include "sections/common/words.hpp"
#include "sections/kuberay/kuberay_reading.hpp"
#include "sections/kuberay/kuberay_section.hpp"

namespace sextant::kuberay {
namespace {

using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

constexpr minutes replica_failure_after{5};
constexpr minutes head_not_ready_after{5};
constexpr hours failed_job_shown_for{24};
constexpr minutes service_not_ready_after{10};
constexpr minutes unhealthy_app_after{5};

std::vector<finding> cluster_findings(const cached_object& cluster, const view_context& context) {
  if (being_deleted(cluster.body())) {
    return {};
  }
  cluster_reading reading = read_cluster(cluster, context);
  if (reading.replica_failure) {
    return {finding{"failed", reading.since.since, replica_failure_after,
                    problem_message("Ray Cluster cannot create or delete its pods", reading.state)}};
  }
  if (reading.old_failed) {
    return {finding{"failed", reading.since.since, seconds{0}, problem_message("Ray Cluster failed", reading.state)}};
  }
  // Provisioned or not: a head that has never become ready is as much a problem as one that
  // stopped being ready.
  if (reading.head_not_ready) {
    return {finding{"head-not-ready", reading.head_since, head_not_ready_after,
                    problem_message("The Ray head pod is not ready", reading.head)}};
  }
  return {};
}

std::vector<finding> job_findings(const cached_object& job, const view_context& context) {
  if (being_deleted(job.body())) {
    return {};
  }
  job_reading reading = read_job(job, context);
  if (!reading.failed) {
    return {};
  }
  finding found{"failed", reading.since.since, seconds{0}, problem_message("Ray Job failed", reading.state)};
  found.shown_for = failed_job_shown_for;
  return {found};
}

std::vector<finding> service_findings(const cached_object& service, const view_context& context) {
  if (being_deleted(service.body())) {
    return {};
  }
  service_reading reading = read_service(service, context);
  if (reading.suspended) {
    return {};
  }
  std::vector<finding> out;
  if (reading.failed) {
    out.push_back(
        finding{"failed", reading.since.since, seconds{0}, problem_message("Ray Service failed", reading.state)});
  } else if (reading.not_ready) {
    out.push_back(finding{"not-ready", reading.since.since, service_not_ready_after,
                          problem_message("Ray Service not ready", reading.state)});
  }
  for (const serve_app& app : reading.apps) {
    if (!app.unhealthy) {
      continue;
    }
    std::string message = "Serve application " + app.name + " on the " + app.cluster_role + " Ray Cluster is " +
                          app.status + (app.message.empty() ? "." : ": " + app.message);
    out.push_back(
        finding{"unhealthy-app-" + app.cluster_role + "-" + app.name, app.since, unhealthy_app_after, message});
  }
  return out;
}

}  // namespace

std::vector<problem_rule> problem_rules() {
  return {problem_rule{std::string(problems_category), raycluster_kind, cluster_findings},
          problem_rule{std::string(problems_category), rayjob_kind, job_findings},
          problem_rule{std::string(problems_category), rayservice_kind, service_findings}};
}

}  // namespace sextant::kuberay
