#include "sections/jobset/jobset_section.hpp"

#include "sections/core/core_section.hpp"

namespace sextant::jobset {

section make_section() {
  section s;
  s.id = "jobset";
  s.title = "JobSet";
  s.group = std::string(jobset_group);
  s.version_preference = {"v1alpha2"};

  resource_def jobsets = kind_resource("jobsets", "JobSets", jobset_kind, scope::namespaced);
  jobsets.state = jobset_state;
  jobsets.summarize = jobset_summary;
  jobsets.details = jobset_details;
  // A JobSet holds its Jobs' whole pod templates: keep what the views read.
  jobsets.profile =
      ingest_profile::keeping({"spec.suspend", "spec.failurePolicy", "spec.startupPolicy", "spec.replicatedJobs.name",
                               "spec.replicatedJobs.replicas", "spec.managedBy", "status"});
  jobsets.joins = {core::job_kind, core::pod_kind};  // its Jobs and pods: linked, and read for its state
  s.resources.push_back(std::move(jobsets));

  s.categories = {problem_category{std::string(problems_category), "JobSet", true}};
  s.rules = problem_rules();

  // The details list Jobs and pods by the JobSet label. Core watches both kinds whole already;
  // only the label index is added, so nothing more is read while no details page is open.
  s.reads.push_back(kind_reads{core::job_kind, {}, {std::string(jobset_name_label)}});
  s.reads.push_back(kind_reads{core::pod_kind, {"spec.nodeName", "status.phase"}, {std::string(jobset_name_label)}});
  return s;
}

}  // namespace sextant::jobset
