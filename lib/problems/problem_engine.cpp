#include "problems/problem_engine.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "util/masking/secrets.hpp"

namespace sextant {

json problem::to_json() const {
  return json{{"category", category}, {"apiVersion", api_version},
              {"kind", type.kind},    {"namespace", namespace_.empty() ? json(nullptr) : json(namespace_)},
              {"name", name},         {"since", format_rfc3339(since)},
              {"message", message},   {"path", path}};
}

namespace {

bool same_problems(const std::vector<problem>& a, const std::vector<problem>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const problem& x, const problem& y) {
    return std::tie(x.category, x.type, x.namespace_, x.name, x.uid, x.finding_id, x.since, x.message, x.path) ==
           std::tie(y.category, y.type, y.namespace_, y.name, y.uid, y.finding_id, y.since, y.message, y.path);
  });
}

}  // namespace

// While a rule judges one object, what it reads is noted into the pass's `reads`; after, the
// recorders are the ones they had (a render that asked for a pass keeps recording its own).
class problem_engine::recording_reads {
 public:
  explicit recording_reads(pass& p)
      : p_(p),
        outer_store_(p.context.store.recording()),
        outer_clock_(p.context.now),
        outer_documents_(p.context.reads) {
    p_.context.store.record_reads(&p_.reads);
    p_.context.now.record_into(&p_.reads);
    p_.context.reads = &p_.reads;
  }
  ~recording_reads() {
    p_.context.store.record_reads(outer_store_);
    p_.context.now = outer_clock_;  // the time it was, noted where it was
    p_.context.reads = outer_documents_;
  }
  recording_reads(const recording_reads&) = delete;
  recording_reads& operator=(const recording_reads&) = delete;

 private:
  pass& p_;
  view_reads* outer_store_;
  view_clock outer_clock_;
  view_reads* outer_documents_;
};

problem_engine::problem_engine(std::vector<problem_category> categories, std::vector<problem_rule> rules)
    : categories_(std::move(categories)), rules_(std::move(rules)), memos_(rules_.size()) {
  for (const problem_category& category : categories_) {
    if (category.enabled_by_default) {
      enabled_.insert(category.id);
    }
  }
}

bool problem_engine::has_category(const std::string& id) const {
  return std::any_of(categories_.begin(), categories_.end(),
                     [&id](const problem_category& category) { return category.id == id; });
}

bool problem_engine::enabled(const std::string& category) const {
  return enabled_.contains(category);
}

void problem_engine::follow(object_store& store) {
  following_ = true;
  store.add_listener([this](const object_store::change& change) {
    for (std::size_t i = 0; i < rules_.size(); ++i) {
      if (rules_[i].type == change.object->type) {
        memos_[i].note_change(*change.object);
      }
    }
  });
}

void problem_engine::set_enabled(const std::string& category, bool on) {
  ++generation_;
  // Judged whole when next judged: an off category's findings are forgotten below, and nothing
  // of a category that was off was noted.
  for (std::size_t i = 0; i < rules_.size(); ++i) {
    if (rules_[i].category == category) {
      memos_[i].forget();
    }
  }
  if (on) {
    // Judged from the next evaluation on, not before.
    if (enabled_.insert(category).second) {
      status_.erase(category);
    }
    return;
  }
  enabled_.erase(category);
  status_.erase(category);
  // Off costs nothing: forget its findings and problems at once.
  std::erase_if(current_, [&category](const problem& p) { return p.category == category; });
  std::erase_if(first_seen_, [&category](const auto& entry) { return std::get<0>(entry.first) == category; });
}

category_status problem_engine::status(const std::string& category) const {
  if (!enabled(category)) {
    return {false, {}, "turned off"};
  }
  auto it = status_.find(category);
  if (it == status_.end()) {
    return {false, {}, "not evaluated yet"};
  }
  return it->second;
}

std::map<std::string, category_status> problem_engine::statuses_of(const view_context& context) const {
  // What each enabled category still waits for: a kind read whole, or cut at its cap (judged as
  // far as it goes, and the views say it is cut), counts as read.
  std::map<std::string, category_status> statuses;
  for (const problem_rule& rule : rules_) {
    if (!enabled(rule.category)) {
      continue;
    }
    category_status& status = statuses[rule.category];
    auto is_read = [&](const kind_key& type) {
      const list_completeness completeness = context.store.completeness(type);
      return completeness.value == list_completeness::state::complete ||
             completeness.value == list_completeness::state::truncated;
    };
    std::vector<kind_key> kinds{rule.type};
    // A rule judges objects of its kind: with none (read, and empty, as on a cluster without the
    // operator), what it would read beside them does not matter, and may not even be watched.
    if (!is_read(rule.type) || context.store.count(rule.type) > 0) {
      kinds.insert(kinds.end(), rule.reads.begin(), rule.reads.end());
    }
    for (const kind_key& type : kinds) {
      const list_completeness completeness = context.store.completeness(type);
      const bool read = is_read(type);
      if (!read && std::find(status.waiting_for.begin(), status.waiting_for.end(), type) == status.waiting_for.end()) {
        status.waiting_for.push_back(type);
        status.reason += (status.reason.empty() ? "" : "; ") + type.to_string() + ": " +
                         (completeness.reason.empty() ? "not read yet" : completeness.reason);
      }
    }
  }
  for (const problem_category& category : categories_) {
    if (enabled(category.id)) {
      category_status& status = statuses[category.id];
      status.evaluated = status.waiting_for.empty();
    }
  }
  return statuses;
}

std::optional<time_point> problem_engine::evaluate(const view_context& context) {
  begin(context);
  step(std::chrono::steady_clock::duration::max());
  return next_due_;
}

void problem_engine::begin(const view_context& context) {
  ++evaluations_;
  pass_.emplace(context);
  pass_->statuses = statuses_of(context);
  pass_->judged = enabled_;
}

bool problem_engine::step(std::chrono::steady_clock::duration budget) {
  using steady = std::chrono::steady_clock;
  if (!pass_) {
    return true;
  }
  const steady::time_point started = steady::now();
  // Saturating: evaluate() asks for no limit with duration::max().
  const steady::time_point deadline =
      budget >= steady::time_point::max() - started ? steady::time_point::max() : started + budget;
  pass& p = *pass_;
  auto past_deadline = [deadline] { return steady::now() >= deadline; };
  while (!p.finished && p.rule < rules_.size()) {
    const problem_rule& rule = rules_[p.rule];
    if (!p.judged.contains(rule.category) || !enabled(rule.category) || !rule.evaluate) {
      ++p.rule;
      continue;
    }
    if (!p.listed) {
      start_rule(p);
    }
    while (p.object < p.objects.size()) {
      judge(p, p.rule, p.objects[p.object++]);
      if (past_deadline()) {
        return false;
      }
    }
    if (following_) {
      memos_[p.rule].complete(std::move(p.reads), p.served_at);
    }
    ++p.rule;
    p.listed = false;
    p.objects.clear();
  }
  if (!p.finished) {
    finish(p);
    p.finished = true;
    if (past_deadline()) {
      return false;
    }
  }
  while (!p.retired_problems.empty() || !p.retired_seen.empty()) {
    if (!p.retired_problems.empty()) {
      p.retired_problems.pop_back();
    } else {
      p.retired_seen.erase(p.retired_seen.begin());
    }
    if (past_deadline()) {
      return false;
    }
  }
  pass_.reset();
  return true;
}

void problem_engine::start_rule(pass& p) {
  const problem_rule& rule = rules_[p.rule];
  const object_store& store = p.context.store;
  rule_memo& memo = memos_[p.rule];
  p.objects.clear();
  p.object = 0;
  p.listed = true;
  p.served_at = p.context.served.generation();
  const bool only_changes = following_ && memo.holds(store, p.context.served);
  std::set<rule_memo::object_name> changed = memo.take_changes();
  if (!only_changes) {
    memo.found().clear();
    p.reads = {};
    p.objects = store.list(rule.type);
    return;
  }
  p.reads = memo.reads();
  for (const rule_memo::object_name& name : changed) {
    memo.found().erase(name);
    if (object_ptr now = store.get(rule.type, name.first, name.second)) {
      p.objects.push_back(std::move(now));
    }
  }
  // The others have not changed (every write and delete of the store reaches note_change), nor
  // has anything the rule read: their findings stand, told again without asking the rule.
  for (const auto& [name, judged] : memo.found()) {
    apply(p, p.rule, *judged.object, judged.findings);
  }
}

void problem_engine::judge(pass& p, std::size_t rule_index, const object_ptr& object) {
  const problem_rule& rule = rules_[rule_index];
  std::vector<finding> findings;
  {
    // What the rule reads beside the object (kinds, the clock, documents) decides how long its
    // findings stand (rule_memo). A render recording its own reads gets its recorder back.
    recording_reads recording(p);
    try {
      findings = rule.evaluate(*object, p.context);
    } catch (const std::exception& error) {
      if (on_rule_failure_) {
        on_rule_failure_(rule, *object, error.what());
      }
      return;  // a rule that cannot read an object judges nothing of it
    }
  }
  if (findings.empty()) {
    return;
  }
  apply(p, rule_index, *object, findings);
  if (following_) {
    memos_[rule_index].found().insert_or_assign(
        rule_memo::object_name{std::string(object->namespace_), std::string(object->name)},
        rule_memo::judged{object, std::move(findings)});
  }
}

void problem_engine::apply(pass& p, std::size_t rule_index, const cached_object& object,
                           const std::vector<finding>& findings) {
  const problem_rule& rule = rules_[rule_index];
  const view_context& context = p.context;
  for (const finding& found : findings) {
    finding_key key{rule.category, rule_index, object.uid.empty() ? object.key() : object.uid, found.id};
    auto seen = first_seen_.find(key);
    time_point first = seen != first_seen_.end() ? seen->second : p.now;
    p.still_seen.emplace(key, first);
    time_point since = found.since.value_or(first);
    time_point due = since + found.threshold;
    if (found.shown_for && since + *found.shown_for <= p.now) {
      continue;  // told for its while, and no longer
    }
    if (due <= p.now) {
      if (found.shown_for && (!p.next_due || since + *found.shown_for < *p.next_due)) {
        p.next_due = since + *found.shown_for;  // wake up to take it off the list
      }
      p.now_current.push_back(problem{rule.category, object.type, std::string(object.api_version),
                                      std::string(object.namespace_), std::string(object.name), std::string(object.uid),
                                      // Rules build messages from masked readings; masked again
                                      // here, no rule can forget (util/masking).
                                      found.id, since, masking::operator_text(found.message),
                                      context.path_json(object.type, object.namespace_, object.name)});
    } else if (!p.next_due || due < *p.next_due) {
      p.next_due = due;
    }
  }
}

void problem_engine::finish(pass& p) {
  // A category turned off during the pass keeps nothing of it; one turned on waits for the next.
  std::erase_if(p.now_current, [this](const problem& found) { return !enabled(found.category); });
  std::erase_if(p.still_seen, [this](const auto& entry) { return !enabled(std::get<0>(entry.first)); });
  std::erase_if(p.statuses, [this](const auto& entry) { return !enabled(entry.first); });
  p.retired_seen = std::exchange(first_seen_, std::move(p.still_seen));
  // Sorted by index and then moved into place once: sorting the problems themselves swaps
  // thousands of records of eight strings each, several ms at 2000 problems.
  std::vector<std::size_t> order(p.now_current.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&found = p.now_current](std::size_t a, std::size_t b) {
    // Ties (two rules' findings of one id on one object) keep the rules' order.
    return std::tie(found[a].category, found[a].namespace_, found[a].name, found[a].type.kind, found[a].finding_id, a) <
           std::tie(found[b].category, found[b].namespace_, found[b].name, found[b].type.kind, found[b].finding_id, b);
  });
  std::vector<problem> sorted;
  sorted.reserve(order.size());
  for (std::size_t index : order) {
    sorted.push_back(std::move(p.now_current[index]));
  }
  p.now_current.clear();
  const bool changed = status_ != p.statuses || !same_problems(current_, sorted);
  status_ = std::move(p.statuses);
  p.retired_problems = std::exchange(current_, std::move(sorted));
  next_due_ = p.next_due;
  if (changed) {
    ++generation_;
  }
}

std::vector<problem> problem_engine::current(const std::optional<std::string>& category) const {
  if (!category) {
    return current_;
  }
  std::vector<problem> out;
  std::copy_if(current_.begin(), current_.end(), std::back_inserter(out),
               [&category](const problem& p) { return p.category == *category; });
  return out;
}

std::set<std::pair<kind_key, std::string>> problem_engine::scopes(const std::optional<std::string>& category) const {
  std::set<std::pair<kind_key, std::string>> out;
  const problem* last = nullptr;  // problems are ordered by namespace within a category: runs repeat a scope
  for (const problem& p : current_) {
    if (category && p.category != *category) {
      continue;
    }
    if (last == nullptr || last->namespace_ != p.namespace_ || !(last->type == p.type)) {
      out.emplace(p.type, p.namespace_);
    }
    last = &p;
  }
  return out;
}

std::vector<problem> problem_engine::for_object(const kind_key& type, std::string_view namespace_,
                                                std::string_view name) const {
  std::vector<problem> out;
  for (const problem& p : current_) {
    if (p.type == type && p.namespace_ == namespace_ && p.name == name) {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace sextant
