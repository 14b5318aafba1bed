#pragma once
// Per-caller cuts (--auth=kubernetes): what one caller may see of an answer rendered once for all
// callers. The decisions are made here, in words of access checks, kinds and namespaces; api/
// turns them into answers (a refusal into a 403 or the placeholder, a list_cut into a page). They
// take what they need (the caller's request_access, how the authorizer names a kind, a list's
// namespace runs) so that auth/ includes nothing of api/ or runtime/, which include it.
//
// A decision not known yet is noted in the request_access (see request_access.hpp) and counts as
// "not allowed" wherever it would show something: such an answer is never served.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "auth/access_check.hpp"
#include "auth/join_marks.hpp"
#include "auth/request_access.hpp"
#include "store/object.hpp"

namespace sextant {

// The sentence a joined entry is hidden behind for one caller, or nullopt when it is shown.
using join_hider = std::function<std::optional<std::string>(const join_span&)>;

// A run of consecutive items of one namespace, and the joined objects its items name (each kind
// and namespace once): a caller's cut asks one question per run and per joined scope, never one
// per item. A list's items are in key order, so each namespace is one run; a computed page's
// may be several.
struct namespace_run {
  std::string namespace_;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::vector<std::pair<kind_key, std::string>> join_scopes;
};

// One caller's cut of a list: the namespaces whose items it may see, and the sentence each joined
// entry it may not read is hidden behind (nullopt: shown).
struct list_cut {
  std::optional<std::set<std::string>> namespaces;  // nullopt: every item
  join_hider hidden;
  bool filtered = false;  // items were left out: the page says "filtered": true
  // What `hidden` hides, when the cut was decided by caller_cuts::list_page: each joined scope
  // (kind, namespace) of the items shown that the caller may not read, with its sentence.
  std::map<std::pair<kind_key, std::string>, std::string> hidden_scopes;
  // cut_identity(*this), made once by list_page (empty: not made yet).
  std::string identity;
};

// What tells one decided cut from another: two cuts with the same identity make the same bytes of
// the same page, whoever the callers are, so one rendering of it serves them all. SHA-256 of the
// namespaces and the hidden scopes, so that no caller can choose a cut that passes for another's.
std::string cut_identity(const list_cut& cut);

// Why a caller gets no answer: a decision not known yet (the placeholder, never served; the
// request runs again once it is known), or a refusal (a 403 with `message`).
struct cut_refusal {
  bool undecided = false;
  std::string message;
};

// The kind a list page shows, as the authorizer names it. An empty kind: a page of no one kind,
// which is checked only through what it is made of.
struct listed_kind {
  kind_key type;
  std::string plural;
  bool namespaced = false;
};

// The caller's cut of a list page: a refusal, the cut to render, or neither (the caller may read
// the whole page). The cut is shared, never copied: a caller's next request on the same model
// gets the one kept in its cut memo.
struct list_decision {
  std::optional<cut_refusal> refusal;
  bool refusal_of_scope = false;  // the refusal answers the one namespace (or cluster) asked for
  std::shared_ptr<const list_cut> cut;
};

// What one caller may not read of the objects an answer joins: each kind and namespace it may
// not read, with the sentence its entries are hidden behind, and what tells this set from another
// (SHA-256, as cut_identity; empty when nothing is hidden: the shared answer is the caller's).
struct joined_cut {
  std::map<std::pair<kind_key, std::string>, std::string> hidden;
  std::string identity;
};

struct problems_cut;
using kept_cut = std::variant<list_decision, joined_cut, problems_cut>;

class caller_cuts {
 public:
  // How the authorizer names a kind (its resource's plural).
  using plural_lookup = std::function<std::string(const kind_key&)>;

  caller_cuts(request_access& access, plural_lookup plural_of);

  // The refusal of a check the caller fails, or while it is not decided; nullopt: allowed.
  std::optional<cut_refusal> refused(const access_check& check);
  // May the caller list `type` in `namespace_` (cluster-wide when empty, or when allowed so)?
  std::optional<bool> may_list(const kind_key& type, const std::string& namespace_);
  // The sentence a joined entry is hidden behind, or nullopt when the caller may read it.
  std::optional<std::string> hidden_for(const join_span& span);
  // What the caller may not read of the objects `joins` name, each kind and namespace asked once.
  joined_cut hidden_joins(const std::vector<join_span>& joins);
  // The check of what a view is made of (resource_def::made_of): the caller must be let list
  // every kind cluster-wide. The refusal names the kind and `what` shows it.
  std::optional<cut_refusal> refused_made_of(const std::vector<kind_key>& made_of, const std::string& what);
  // The caller's cut of a page of `listed` whose items fall in `runs`; `asked_namespace`: the
  // namespace the request names, if any. `model`: what the runs are read from; with it, a
  // decided cut is kept in the request's cut memo and found there by the caller's next request
  // on the same model.
  list_decision list_page(const std::vector<namespace_run>& runs, const listed_kind& listed,
                          const std::optional<std::string>& asked_namespace,
                          const std::shared_ptr<const void>& model = nullptr);

  std::string plural_of(const kind_key& type) const { return plural_of_(type); }
  bool decided() const { return access_.decided(); }

  // The request's cut memo (request_access::memo), under this caller: the cut of `what` kept for
  // `source` (null: none), or null when none is kept (or there is no memo).
  const kept_cut* recalled(const std::string& what, const void* source);
  // Keeps a cut of `what` decided in this request, until the first decision it was made from
  // ends; nothing while a question of the request is not decided.
  void remember(const std::string& what, const std::shared_ptr<const void>& source, kept_cut cut);

 private:
  list_decision decide_list_page(const std::vector<namespace_run>& runs, const listed_kind& listed,
                                 const std::optional<std::string>& asked_namespace);

  request_access& access_;
  plural_lookup plural_of_;
};

// The answer to /metrics as one caller gets it: the series that name an object (sextant_problem)
// go when the caller may not list it, and the per-category counts (sextant_problems) count only
// what is left.
class metrics_cut {
 public:
  explicit metrics_cut(caller_cuts& cuts) : cuts_(cuts) {}
  // An object the series name (a problem of `category`): left out unless the caller may list it.
  void named(const std::string& category, const kind_key& type, const std::string& namespace_, const std::string& name);
  std::string apply(std::string text) const;

 private:
  caller_cuts& cuts_;
  std::set<std::string> hidden_;
  std::map<std::string, int> hidden_per_category_;
};

}  // namespace sextant
