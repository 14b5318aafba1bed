#include "sections/kueue/kueue_section.hpp"

namespace sextant::kueue {
namespace {

object_state defined(const cached_object&, const view_context&) {
  return {"Defined", "", ""};
}

}  // namespace

section make_section(position_lookup positions) {
  if (!positions) {
    positions = position_from_visibility;
  }
  section s;
  s.id = "kueue";
  s.title = "Kueue";
  s.group = std::string(kueue_group);
  s.version_preference = {"v1beta2", "v1beta1"};

  resource_def cluster_queues = kind_resource("clusterqueues", "Cluster Queues", cluster_queue_kind, scope::cluster);
  cluster_queues.state = cluster_queue_state;
  cluster_queues.summarize = cluster_queue_summary;
  cluster_queues.details = [positions](const cached_object& queue, const view_context& context, details_view& view) {
    cluster_queue_details(queue, context, view, positions);
  };
  cluster_queues.joins = {cohort_kind, local_queue_kind, workload_kind};
  s.resources.push_back(std::move(cluster_queues));

  resource_def local_queues = kind_resource("localqueues", "Local Queues", local_queue_kind, scope::namespaced);
  local_queues.state = local_queue_state;
  local_queues.summarize = local_queue_summary;
  local_queues.details = [positions](const cached_object& queue, const view_context& context, details_view& view) {
    local_queue_details(queue, context, view, positions);
  };
  local_queues.joins = {cluster_queue_kind, cohort_kind, workload_kind};
  s.resources.push_back(std::move(local_queues));

  resource_def flavors = kind_resource("resourceflavors", "Resource Flavors", resource_flavor_kind, scope::cluster);
  flavors.state = defined;
  flavors.details = resource_flavor_details;
  s.resources.push_back(std::move(flavors));

  resource_def workloads = kind_resource("workloads", "Workloads", workload_kind, scope::namespaced);
  workloads.state = workload_state;
  workloads.summarize = workload_summary;
  workloads.details = workload_details;
  workloads.profile = workload_profile();
  workloads.cap = workload_cap;
  // Each Workload carries its job's pod templates: watched only while someone needs them.
  workloads.on_demand_category = std::string(workloads_category);
  // A Workload's state is explained from its queues; they are linked.
  workloads.joins = {local_queue_kind, cluster_queue_kind, cohort_kind};
  s.resources.push_back(std::move(workloads));

  resource_def checks = kind_resource("admissionchecks", "Admission Checks", admission_check_kind, scope::cluster);
  checks.state = admission_check_state;
  checks.details = admission_check_details;
  s.resources.push_back(std::move(checks));

  resource_def cohorts = kind_resource("cohorts", "Cohorts", cohort_kind, scope::cluster);
  cohorts.state = cohort_state;
  cohorts.details = cohort_details;
  s.resources.push_back(std::move(cohorts));

  resource_def priority_classes =
      kind_resource("workloadpriorityclasses", "Workload Priority Classes", priority_class_kind, scope::cluster);
  priority_classes.state = defined;
  priority_classes.summarize = priority_class_summary;
  s.resources.push_back(std::move(priority_classes));

  s.categories = {problem_category{std::string(queues_category), "Kueue queues", true},
                  problem_category{std::string(workloads_category), "Kueue Workloads", false}};
  s.rules = problem_rules();

  for (const job_resource& job : job_resources()) {
    s.extensions.push_back(
        details_extension{job.type,
                          [](const cached_object& object, const view_context& context, details_view& view) {
                            json block = queue_block(object, context);
                            if (block.is_null()) {
                              return;
                            }
                            if (block["workload"].is_object()) {
                              const json& link = block["workload"];
                              view.link(context, "workload", link["apiVersion"].get<std::string>(), "Workload",
                                        object.namespace_, link["name"].get<std::string>());
                            }
                            view.blocks["queue"] = std::move(block);
                          },
                          {},
                          {workload_kind, local_queue_kind, cluster_queue_kind, cohort_kind}});
  }
  // The Queue route reads the job it names: each job kind is watched on demand, where served.
  for (const job_resource& job : job_resources()) {
    s.reads_on_demand.push_back(job.type);
  }
  s.routes.push_back(section_route{"queue",
                                   queue_route,
                                   queue_route_permission,
                                   {},
                                   {workload_kind, local_queue_kind, cluster_queue_kind, cohort_kind}});
  s.documents.push_back(pending_workloads_polling());
  return s;
}

}  // namespace sextant::kueue
