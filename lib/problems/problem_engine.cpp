#include "problems/problem_engine.hpp"

#include <algorithm>

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

problem_engine::problem_engine(std::vector<problem_category> categories, std::vector<problem_rule> rules)
    : categories_(std::move(categories)), rules_(std::move(rules)) {
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

void problem_engine::set_enabled(const std::string& category, bool on) {
  ++generation_;
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

std::optional<time_point> problem_engine::evaluate(const view_context& context) {
  ++evaluations_;
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
  if (status_ != statuses) {
    ++generation_;  // the problem list says which categories are judged
  }
  status_ = std::move(statuses);
  std::map<finding_key, time_point> still_seen;
  std::vector<problem> now_current;
  std::optional<time_point> next_due;
  for (std::size_t index = 0; index < rules_.size(); ++index) {
    const problem_rule& rule = rules_[index];
    if (!enabled(rule.category) || !rule.evaluate) {
      continue;
    }
    for (const object_ptr& object : context.store.list(rule.type)) {
      std::vector<finding> findings;
      try {
        findings = rule.evaluate(*object, context);
      } catch (const std::exception& error) {
        if (on_rule_failure_) {
          on_rule_failure_(rule, *object, error.what());
        }
        continue;  // a rule that cannot read an object judges nothing of it
      }
      for (finding& found : findings) {
        finding_key key{rule.category, index, object->uid.empty() ? object->key() : object->uid, found.id};
        auto seen = first_seen_.find(key);
        time_point first = seen != first_seen_.end() ? seen->second : time_point(context.now);
        still_seen.emplace(key, first);
        time_point since = found.since.value_or(first);
        time_point due = since + found.threshold;
        if (found.shown_for && since + *found.shown_for <= context.now) {
          continue;  // told for its while, and no longer
        }
        if (due <= context.now) {
          if (found.shown_for && (!next_due || since + *found.shown_for < *next_due)) {
            next_due = since + *found.shown_for;  // wake up to take it off the list
          }
          now_current.push_back(problem{rule.category, object->type, object->api_version, object->namespace_,
                                        object->name, object->uid, found.id, since, std::move(found.message),
                                        context.path_json(object->type, object->namespace_, object->name)});
        } else if (!next_due || due < *next_due) {
          next_due = due;
        }
      }
    }
  }
  first_seen_ = std::move(still_seen);
  std::sort(now_current.begin(), now_current.end(), [](const problem& a, const problem& b) {
    return std::tie(a.category, a.namespace_, a.name, a.type.kind, a.finding_id) <
           std::tie(b.category, b.namespace_, b.name, b.type.kind, b.finding_id);
  });
  if (!same_problems(current_, now_current)) {
    ++generation_;
  }
  current_ = std::move(now_current);
  return next_due;
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

std::vector<problem> problem_engine::for_object(const kind_key& type, const std::string& namespace_,
                                                const std::string& name) const {
  std::vector<problem> out;
  for (const problem& p : current_) {
    if (p.type == type && p.namespace_ == namespace_ && p.name == name) {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace sextant
