#pragma once
// The registered sections, and the questions the API asks of them: which are listed for what
// the cluster serves, which resource a route names, which resource shows a kind.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ingest/ingest_profile.hpp"
#include "sections/section.hpp"
#include "store/served_kinds.hpp"

namespace sextant {

struct resource_match {
  const section* owner = nullptr;
  const resource_def* resource = nullptr;
};

class section_catalog {
 public:
  explicit section_catalog(std::vector<section> sections);

  const std::vector<section>& sections() const { return sections_; }
  const section* find_section(const std::string& id) const;
  // Resources that are not `shown` are found by neither: they have no page.
  resource_match find_resource(const std::string& section_id, const std::string& resource_id) const;
  // The resource that shows objects of a kind (the first registered).
  resource_match resource_for_kind(const kind_key& type) const;

  // Whether a section is listed: `core` always, others while one of their kinds is served.
  bool listed(const section& s, const served_kinds& served) const;
  // Whether a resource is served: its kind is, or (computed pages) its section is listed.
  bool served(const section& s, const resource_def& r, const served_kinds& served) const;

  // "/api/v1/kueue/workloads/team-a/w1", or nullopt when no served resource shows the kind.
  std::optional<std::string> path_for(const kind_key& type, std::string_view namespace_, std::string_view name,
                                      const served_kinds& served) const;

  // Whether a kind is read on demand (its resource names an on_demand_category, or a section
  // lists it in section::reads_on_demand): a view that read it asks the source for it.
  bool read_on_demand(const kind_key& type) const { return read_on_demand_.contains(type); }

  // The version the daemon reads a kind in: its section's preference among the versions the
  // cluster serves it in (or, when the kind is not served, its group), else the preferred one.
  std::string version_for(const kind_key& type, const served_kinds& served) const;
  // How the authorizer names a kind: the plural discovery gives, else a section's resource's,
  // else the API's usual plural (a wrong guess is denied, which hides rather than shows).
  std::string plural_for(const kind_key& type, const served_kinds& served) const;

  // The ingest profiles every section declares, with the labels they index, and what other
  // sections read of each kind (section::reads) merged in.
  ingest_profiles profiles() const;
  std::vector<problem_category> categories() const;
  std::vector<problem_rule> rules() const;

  // A context for interpreters over this store, with links resolved through this catalog.
  view_context context(const object_store& store, const served_kinds& served, time_point now,
                       const polled_documents* documents = nullptr) const;
  // Every document the sections poll in live mode.
  std::vector<polled_document> polled() const;

 private:
  std::vector<section> sections_;
  std::set<kind_key> read_on_demand_;
};

}  // namespace sextant
