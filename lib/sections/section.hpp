#pragma once
// The contract between the daemon and one operator's section.
//
// A section is plain data plus pure functions: it declares its resources, how each is cached,
// how an object's state reads, what its details show, and which problems it can have. It never
// reads a clock, the network or global state: everything comes in through `view_context`.
// Adding an operator = a folder under lib/sections/ exposing `make_section()` + one line in
// registry.cpp.
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "auth/access_check.hpp"
#include "ingest/ingest_profile.hpp"
#include "sections/streaming_route.hpp"
#include "sections/view_context.hpp"
#include "store/namespace_source.hpp"
#include "store/object.hpp"
#include "store/packed_value.hpp"
#include "store/polled_documents.hpp"

namespace sextant {

struct object_state {
  std::string label;    // one of the words api.md fixes for the kind
  std::string reason;   // the operator's own reason, when it gave one
  std::string message;  // plain words, or the operator's message as written
};

// What a details answer holds beyond the summary: blocks, links and notes.
struct details_view {
  json blocks = json::object();
  json links = json::array();
  json notes = json::array();

  // Adds a link; `path` is filled from the context (null for kinds the API does not serve).
  void link(const view_context& context, std::string rel, std::string_view api_version, const std::string& kind,
            std::string_view namespace_, std::string_view name);
  void link(const view_context& context, std::string rel, const cached_object& object);
  void note(std::string sentence) { notes.push_back(std::move(sentence)); }
};

// A computed page's items (`devices`, `gpunodes`).
struct computed_list {
  json items = json::array();
  bool incomplete = false;
  std::string incomplete_reason;
};

struct resource_def {
  std::string id;      // the route segment: "workloads"
  std::string title;   // "Workloads"
  kind_key type;       // empty kind for computed pages
  std::string plural;  // the API's resource name (for watches): usually the id
  bool namespaced = true;

  std::function<object_state(const cached_object&, const view_context&)> state;
  // Optional: fields added to the summary (and so to details too).
  std::function<void(const cached_object&, const view_context&, json& summary)> summarize;
  // Optional: the details' own blocks, links and notes.
  std::function<void(const cached_object&, const view_context&, details_view&)> details;
  // For computed pages only: every item.
  std::function<computed_list(const view_context&)> list_computed;
  // What the views of this resource (its list and details) read beyond its own kind, in two
  // kinds of read (README "Security"); tests/unit/auth/route_reads_guard_test.cpp fails for a
  // view that reads a kind named in neither.
  // `made_of`: kinds whose objects' content the views show (a computed page's items, a
  // component's rollout read from its DaemonSet). With --auth=kubernetes the caller must be let
  // `list` each cluster-wide, as it would to read them from the API server, else 403. A
  // computed page must name at least one: one that names none is served to no caller.
  std::vector<kind_key> made_of;
  // `joins`: kinds the views read only to link to their objects (each one a joined entry,
  // written through view_context::path_json and cut per caller) or to explain this resource's
  // own objects in the daemon's words (a Workload's state from its queues). No check: a caller
  // learns of them only that a joined object is there, or the daemon's verdict on an object it
  // may read.
  std::vector<kind_key> joins;

  // How the kind is cached and watched.
  std::optional<ingest_profile> profile;
  std::size_t cap = 0;         // most objects read (0: no cap); past it the list is incomplete
  std::string label_selector;  // watch only objects with this selector ("a=b")
  // Read on demand (see "Read on demand" below): the kind is watched only while this problem category
  // is on, or for a while after a view read it. Empty: always watched.
  std::string on_demand_category;

  // False for a kind watched and cached only for the section's own views (the GPU Operator's
  // DaemonSets, shown inside its components): no page, route or link of its own.
  bool shown = true;
  // Set to watch the kind only in the namespace(s) other objects name; see watch_plan.hpp.
  std::optional<namespace_source> namespace_from;
};

// "Read on demand", the one concept behind `on_demand_category` and `section::reads_on_demand`: a
// kind too costly to watch always (Kueue's Workloads carry their jobs' pod templates) is watched
// only while a problem category that judges it is on, or for 5 minutes after a view read it. Its
// resource names the category; a kind no section shows under a resource (the Queue section's job
// kinds) is listed in `section::reads_on_demand`. That is all a section declares: which views
// read the kind is not declared but recorded as each view renders (store/view_reads.hpp), and
// serving a view asks for every kind read on demand that it read.

enum class scope { namespaced, cluster };

// The usual resource: a kind shown under its API plural (the route segment is the plural too).
// The section then sets how it reads: state, summarize, details, profile.
resource_def kind_resource(std::string plural, std::string title, kind_key type, scope where);

// A problem rule's finding on one object: "this condition holds since T".
struct finding {
  std::string id;                     // stable within the rule: "inadmissible"
  std::optional<time_point> since;    // from the object when it tells; else first seen
  std::chrono::seconds threshold{0};  // how long it must hold before it is a problem
  std::string message;
  // Set for a problem told for a while and then no longer (a failed JobSet, for a day): it is
  // current from since + threshold until since + shown_for.
  std::optional<std::chrono::seconds> shown_for = std::nullopt;
};

struct problem_rule {
  std::string category;
  kind_key type;
  std::function<std::vector<finding>(const cached_object&, const view_context&)> evaluate;
  // Other kinds the rule must have read before its silence means "no problem" (a pod's claims).
  std::vector<kind_key> reads = {};
};

struct problem_category {
  std::string id;
  std::string title;
  bool enabled_by_default = true;
};

// Adds a block to the details of another section's kind (DRA adds claims to Pods).
struct details_extension {
  kind_key type;
  std::function<void(const cached_object&, const view_context&, details_view&)> extend;
  // What `extend` reads beyond the extended kind, as resource_def::made_of and ::joins: the
  // caller of the extended details must be let list every `made_of` kind.
  std::vector<kind_key> made_of = {};
  std::vector<kind_key> joins = {};
};

// An answer from a section's own route (`/api/v1/kueue/queue/...`).
struct route_answer {
  int status = 200;
  json body;
  std::string reason;  // for errors: NotFound, NoQueueSection, ...
};

struct section_route {
  std::string segment;  // the segment after the section id: "queue"
  std::function<route_answer(std::span<const std::string> rest, const view_context&)> handle;
  // What a caller must be allowed to read one request's answer (--auth=kubernetes), by its
  // segments: `get` on the object it is about, `get pods/log`, ...; nullopt when the request
  // names nothing to read (it answers an error). Unset: the route is refused to every caller,
  // so a new route cannot be served unchecked.
  std::function<std::optional<access_check>(std::span<const std::string> rest)> permission_of = {};
  // What the route's answers read beyond what `permission_of` checks, as resource_def::made_of
  // and ::joins.
  std::vector<kind_key> made_of = {};
  std::vector<kind_key> joins = {};
};

// What a section reads of a kind another section owns (DRA reads a Pod's claims): the fields
// it needs kept in the cached body and the labels it looks objects up by. The catalog merges them
// into the owner's profile, so the owner lists only what its own views read.
struct kind_reads {
  kind_key type;
  std::vector<std::string> fields;          // dotted paths, as ingest_profile::keeping takes them
  std::vector<std::string> indexed_labels;  // label keys for object_store::with_label
};

struct section {
  std::string id;
  std::string title;
  std::string group;
  bool always_listed = false;                   // `core`
  std::vector<std::string> version_preference;  // read this version first when served
  std::vector<resource_def> resources;
  std::vector<problem_category> categories;
  std::vector<problem_rule> rules;
  std::vector<details_extension> extensions;
  std::vector<kind_reads> reads;  // of other sections' kinds, beside the extensions that read them
  std::vector<section_route> routes;
  std::vector<streaming_route> streams;  // text streams under a resource's objects (logs)
  std::vector<polled_document> documents;
  // Kinds read on demand that no section shows under a resource (the Queue section's job kinds):
  // live mode watches each only for a while after a view read it, and only where it is served.
  // Watch planning needs them up front: a view cannot ask for a kind the plan does not know.
  std::vector<kind_key> reads_on_demand;
};

}  // namespace sextant
