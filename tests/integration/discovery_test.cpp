// Discovery on a live cluster: an operator's CRD installed while running makes its section
// appear, removing it makes the section disappear; watches that need asking start on demand.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "live_harness.hpp"
#include "runtime/section_catalog.hpp"
#include "sections/core/core_section.hpp"
#include "snapshot/yaml_to_json.hpp"
#include "test_cluster.hpp"

using namespace sextant;
using namespace sextant::integration;

namespace {

const kind_key jobset_type{"jobset.x-k8s.io", "JobSet"};
const kind_key job_type{"batch", "Job"};

// A section over JobSets as an operator section declares them.
section jobset_section() {
  section s;
  s.id = "jobset";
  s.title = "JobSet";
  s.group = "jobset.x-k8s.io";
  s.version_preference = {"v1alpha2"};
  resource_def jobsets;
  jobsets.id = "jobsets";
  jobsets.title = "JobSets";
  jobsets.type = jobset_type;
  jobsets.plural = "jobsets";
  s.resources.push_back(jobsets);
  return s;
}

json jobset(const std::string& ns, const std::string& name) {
  json pod_spec{{"restartPolicy", "Never"},
                {"containers", json::array({{{"name", "main"}, {"image", "registry.k8s.io/pause:3.10"}}})}};
  json job_template{{"spec", {{"template", {{"spec", pod_spec}}}}}};
  return json{
      {"apiVersion", "jobset.x-k8s.io/v1alpha2"},
      {"kind", "JobSet"},
      {"metadata", {{"name", name}, {"namespace", ns}}},
      {"spec",
       {{"replicatedJobs", json::array({{{"name", "workers"}, {"replicas", 1}, {"template", job_template}}})}}}};
}

json jobset_crd() {
  return yaml_to_json(YAML::LoadFile((upstream_crds("jobset") / "jobset.x-k8s.io_jobsets.yaml").string()));
}

}  // namespace

TEST_CASE("a CRD installed while running makes its section appear and removing it makes it disappear",
          "[integration][discovery]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  std::vector<section> sections{core::make_section(), jobset_section()};
  section_catalog catalog(sections);
  live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), sections);
  REQUIRE(live.run_until([&] { return live.ready(); }));
  const section& jobsets = *catalog.find_section("jobset");
  CHECK_FALSE(catalog.listed(jobsets, live.served));
  CHECK(live.live->watches().count("jobsets.jobset.x-k8s.io") == 0);

  REQUIRE(admin.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", jobset_crd()).ok());
  REQUIRE(live.run_until([&] { return catalog.listed(jobsets, live.served); }, std::chrono::seconds(30)));
  REQUIRE(live.run_until([&] { return live.live->watches().count("jobsets.jobset.x-k8s.io") == 1 && live.ready(); },
                         std::chrono::seconds(30)));
  CHECK(live.live->watches().at("jobsets.jobset.x-k8s.io") == "v1alpha2");

  answer created = admin.post("/apis/jobset.x-k8s.io/v1alpha2/namespaces/ml/jobsets", jobset("ml", "pretrain"));
  REQUIRE(created.ok());
  REQUIRE(live.run_until([&] { return live.store.get(jobset_type, "ml", "pretrain") != nullptr; },
                         std::chrono::seconds(5)));

  REQUIRE(admin.remove("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/jobsets.jobset.x-k8s.io").ok());
  REQUIRE(live.run_until([&] { return !catalog.listed(jobsets, live.served); }, std::chrono::seconds(60)));
  REQUIRE(live.run_until([&] { return live.live->watches().count("jobsets.jobset.x-k8s.io") == 0; }));
  CHECK(live.store.count(jobset_type) == 0);  // what is no longer served is no longer shown
  CHECK(live.ready());
}

TEST_CASE("a kind watched on demand starts when asked for and stops when no longer asked", "[integration][discovery]") {
  test_cluster cluster;
  admin_client admin = cluster.admin();
  REQUIRE(admin.post("/api/v1/namespaces", namespace_object("ml")).ok());
  REQUIRE(admin.post("/apis/batch/v1/namespaces/ml/jobs", job_object("ml", "train")).ok());

  // Jobs watched only for a problem category that is off, as Kueue's Workloads are.
  section demanding = core::make_section();
  for (resource_def& r : demanding.resources) {
    if (r.type == job_type) {
      r.on_demand_category = "test-jobs";
    }
  }
  demanding.categories.push_back(problem_category{"test-jobs", "Jobs", false});
  bool category_on = false;
  live_harness live(kubeconfig(cluster.env("KUBECONFIG_TOKEN")), {demanding});
  live.live->set_category_check([&category_on](const std::string& id) { return id == "test-jobs" && category_on; });
  REQUIRE(live.run_until([&] { return live.ready(); }));
  CHECK(live.live->watches().count("jobs.batch") == 0);
  CHECK(live.store.count(job_type) == 0);

  live.live->demand(job_type);  // a details page that needs Jobs is open
  REQUIRE(live.run_until([&] { return live.store.get(job_type, "ml", "train") != nullptr; }, std::chrono::seconds(5)));
  // Nobody asks again: after the demand time (3 s here) the watch stops and its objects go.
  REQUIRE(live.run_until([&] { return live.live->watches().count("jobs.batch") == 0; }, std::chrono::seconds(15)));
  CHECK(live.store.count(job_type) == 0);
  CHECK(live.store.completeness(job_type).value == list_completeness::state::not_synced);

  category_on = true;  // the problem category is turned on
  live.live->categories_changed();
  REQUIRE(live.run_until([&] { return live.store.get(job_type, "ml", "train") != nullptr; }, std::chrono::seconds(5)));
  live.run_for(std::chrono::seconds(5));
  CHECK(live.live->watches().count("jobs.batch") == 1);  // stays while the category is on
}
