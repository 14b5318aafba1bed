#pragma once
// Keeps the current problems: rule findings that have held past their category's threshold.
//
// A rule says "this condition holds since T" (T from the object when it tells, else when the
// daemon first saw the finding). The engine applies the threshold against the clock, keeps
// what is current, and tells the caller when the next pending finding will cross its
// threshold, so one timer on the event loop suffices. Categories that are off are not
// evaluated at all. Owned by the event loop; not thread-safe.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "problems/rule_memo.hpp"
#include "sections/section.hpp"
#include "store/object.hpp"
#include "store/object_store.hpp"
#include "util/time.hpp"

namespace sextant {

struct problem {
  std::string category;
  kind_key type;
  std::string api_version;
  std::string namespace_;  // empty for cluster-scoped objects
  std::string name;
  std::string uid;
  std::string finding_id;
  time_point since;
  std::string message;
  json path;  // string or null

  json to_json() const;
};

// Whether a category has judged every object it needs: at its last evaluation, every kind its
// rules read was read (whole or cut at its cap). Until then an empty answer is not "no problems".
struct category_status {
  bool evaluated = false;
  std::vector<kind_key> waiting_for;  // the kinds not read yet (or not readable) at the last evaluation
  std::string reason;                 // plain words, empty once evaluated

  bool operator==(const category_status&) const = default;
};

class problem_engine {
 public:
  problem_engine(std::vector<problem_category> categories, std::vector<problem_rule> rules);

  const std::vector<problem_category>& categories() const { return categories_; }
  bool has_category(const std::string& id) const;
  bool enabled(const std::string& category) const;
  void set_enabled(const std::string& category, bool on);

  // Judge, from the next pass on, only the objects `store` says changed, wherever a rule's last
  // judgement still holds (rule_memo.hpp); without it every pass judges every object. `store`
  // must be the one the passes' contexts read; it keeps a listener pointing at this engine, so
  // no change may be made to it once the engine is gone.
  void follow(object_store& store);

  // Re-evaluates every rule of every enabled category against the store at `context.now`.
  // Returns when the next pending finding will cross its threshold, or a current one told for a
  // while (finding::shown_for) ends, if any.
  std::optional<time_point> evaluate(const view_context& context);

  // The same evaluation a slice at a time, so that judging 5000 Workloads does not stall the
  // event loop: `begin` fixes the context (its clock is the pass's now) and each `step` judges
  // objects for about `budget`, true once the pass is done. Until then every answer is the last
  // finished pass's: problems, statuses and generation change together when the last object is
  // judged (later steps only free what the pass replaced). Each rule judges its objects as listed
  // when it starts; `begin` during a pass abandons it.
  void begin(const view_context& context);
  bool step(std::chrono::steady_clock::duration budget);
  bool evaluating() const { return pass_.has_value(); }
  // What the last finished pass returned (see `evaluate`).
  std::optional<time_point> next_due() const { return next_due_; }

  // Current problems, ordered by category, namespace, name; `category` narrows.
  std::vector<problem> current(const std::optional<std::string>& category = std::nullopt) const;
  // The kind and namespace of each current problem's object, each once: what a caller's cut of
  // the problems asks about. Read in place, without copying the problems.
  std::set<std::pair<kind_key, std::string>> scopes(const std::optional<std::string>& category = std::nullopt) const;
  std::vector<problem> for_object(const kind_key& type, std::string_view namespace_, std::string_view name) const;
  std::size_t evaluations() const { return evaluations_; }
  // A category that is off is never evaluated; one just turned on is not until the next evaluation.
  category_status status(const std::string& category) const;

  // Told when a rule throws on an object; the rule then judges nothing of that object.
  using rule_failure_listener =
      std::function<void(const problem_rule& rule, const cached_object& object, const std::string& error)>;
  void on_rule_failure(rule_failure_listener listener) { on_rule_failure_ = std::move(listener); }
  // Changes whenever the current problems or the enabled categories change: views that show
  // problems key their cached answers on it.
  std::uint64_t generation() const { return generation_; }

 private:
  // (category, rule index, object uid or key, finding id)
  using finding_key = std::tuple<std::string, std::size_t, std::string, std::string>;

  // An evaluation under way.
  struct pass {
    explicit pass(const view_context& at) : context(at), now(at.now) {}

    view_context context;
    time_point now;  // read once: a rule's own reads of the clock are noted in `reads`
    std::map<std::string, category_status> statuses;
    std::set<std::string> judged;  // the categories on when it began: one turned on waits for the next
    std::size_t rule = 0;
    bool listed = false;              // `objects` holds the rule's objects
    std::vector<object_ptr> objects;  // as listed when the rule started (or those changed since its memo)
    view_reads reads;                 // what the rule under way read beside its objects
    std::uint64_t served_at = 0;      // the served kinds' generation when the rule under way began
    std::size_t object = 0;
    std::map<finding_key, time_point> still_seen;
    std::vector<problem> now_current;
    std::optional<time_point> next_due;
    // Once the pass has taken effect, what it replaced: thousands of problems and findings whose
    // freeing alone held the loop for several ms, so they are freed a slice at a time too.
    bool finished = false;
    std::vector<problem> retired_problems;
    std::map<finding_key, time_point> retired_seen;
  };

  class recording_reads;

  std::map<std::string, category_status> statuses_of(const view_context& context) const;
  // Lists what the rule under way judges: every object, or only those changed since its memo
  // (the findings of the others are taken from the memo at once).
  void start_rule(pass& p);
  void judge(pass& p, std::size_t rule_index, const object_ptr& object);
  // Turns one object's findings into problems and pending due times.
  void apply(pass& p, std::size_t rule_index, const cached_object& object, const std::vector<finding>& findings);
  void finish(pass& p);

  std::vector<problem_category> categories_;
  std::vector<problem_rule> rules_;
  std::vector<rule_memo> memos_;  // one per rule
  bool following_ = false;
  std::set<std::string> enabled_;
  std::map<finding_key, time_point> first_seen_;
  std::vector<problem> current_;
  std::map<std::string, category_status> status_;  // enabled categories, as of the last evaluation
  std::optional<pass> pass_;
  std::optional<time_point> next_due_;
  std::size_t evaluations_ = 0;
  std::uint64_t generation_ = 0;
  rule_failure_listener on_rule_failure_;
};

}  // namespace sextant
