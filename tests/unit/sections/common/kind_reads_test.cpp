// A section declares what it reads of another section's kind; the catalog merges it into that
// kind's profile, so the owner's profile lists only its own fields.
#include <algorithm>

#include <catch2/catch.hpp>

#include "runtime/section_catalog.hpp"
#include "sections/core/core_section.hpp"
#include "sections/registry.hpp"

using namespace sextant;

namespace {

const ingest_profile& pod_profile_of(const section& core) {
  for (const resource_def& r : core.resources) {
    if (r.type == core::pod_kind) {
      return *r.profile;
    }
  }
  FAIL("core has no Pod profile");
  throw std::logic_error("unreachable");
}

bool keeps(const ingest_profile& profile, std::initializer_list<std::string_view> path) {
  const field_mask* at = &profile.mask;
  for (std::string_view step : path) {
    at = at->child(step);
    if (at == nullptr) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("core's Pod profile carries only core's fields and labels", "[toolkit][reads]") {
  section core = core::make_section();
  const ingest_profile& pods = pod_profile_of(core);
  CHECK_FALSE(keeps(pods, {"spec", "resourceClaims"}));
  CHECK_FALSE(keeps(pods, {"status", "resourceClaimStatuses"}));
  CHECK(keeps(pods, {"status", "phase"}));
  CHECK(pods.indexed_labels == std::vector<std::string>{"batch.kubernetes.io/job-name"});
}

TEST_CASE("the catalog merges what DRA reads of Pods into the Pod profile", "[toolkit][reads]") {
  section_catalog catalog(all_sections());
  ingest_profiles profiles = catalog.profiles();
  const ingest_profile& pods = profiles.for_kind(core::pod_kind);
  CHECK(keeps(pods, {"spec", "resourceClaims"}));
  CHECK(keeps(pods, {"spec", "containers", "resources", "claims"}));
  CHECK(keeps(pods, {"status", "resourceClaimStatuses"}));
  CHECK(keeps(pods, {"status", "extendedResourceClaimStatus"}));
  CHECK(keeps(pods, {"status", "phase"}));
  CHECK_FALSE(keeps(pods, {"status", "podIPs"}));
}

TEST_CASE("a new section's label index on another section's kind touches only its own folder", "[toolkit][reads]") {
  std::vector<section> sections = all_sections();
  section serving;
  serving.id = "serving";
  serving.reads.push_back(
      kind_reads{core::pod_kind, {"spec.containers.ports"}, {"serving.kserve.io/inferenceservice"}});
  serving.reads.push_back(kind_reads{{"example.com", "Thing"}, {"spec.size"}, {"example.com/owner"}});
  sections.push_back(std::move(serving));
  section_catalog catalog(std::move(sections));
  ingest_profiles profiles = catalog.profiles();
  const ingest_profile& pods = profiles.for_kind(core::pod_kind);
  CHECK(keeps(pods, {"spec", "containers", "ports"}));
  CHECK(std::count(pods.indexed_labels.begin(), pods.indexed_labels.end(), "serving.kserve.io/inferenceservice") == 1);
  // A kind nobody narrowed stays whole; its labels are indexed all the same.
  const ingest_profile& thing = profiles.for_kind({"example.com", "Thing"});
  CHECK(thing.mask.is_whole());
  CHECK(thing.indexed_labels == std::vector<std::string>{"example.com/owner"});
}
