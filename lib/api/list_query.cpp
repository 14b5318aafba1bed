#include "api/list_query.hpp"

#include <algorithm>
#include <charconv>

#include "kube/base64.hpp"
#include "util/digest.hpp"
#include "util/object_names.hpp"

namespace sextant {
namespace {

// State labels are words of api.md's table ("Waiting for admission checks" is the longest).
constexpr std::size_t max_state_label = 63;

// Bad text is quoted back shortened, so that an answer never echoes a long value whole.
std::string quoted_short(std::string_view text) {
  constexpr std::size_t shown = 64;
  return "\"" + std::string(text.substr(0, shown)) + (text.size() > shown ? "...\"" : "\"");
}

std::string trim(std::string_view text) {
  while (!text.empty() && text.front() == ' ') {
    text.remove_prefix(1);
  }
  while (!text.empty() && text.back() == ' ') {
    text.remove_suffix(1);
  }
  return std::string(text);
}

bool matches(const list_item& item, const label_term& term) {
  auto it = std::find_if(item.labels.begin(), item.labels.end(),
                         [&term](const auto& label) { return label.first == term.key; });
  switch (term.test) {
    case label_term::op::equals:
      return it != item.labels.end() && it->second == term.value;
    case label_term::op::not_equals:
      return it == item.labels.end() || it->second != term.value;
    case label_term::op::exists:
      return it != item.labels.end();
    case label_term::op::not_exists:
      return it == item.labels.end();
  }
  return false;
}

bool selected(const list_item& item, const list_query& query) {
  if (query.namespace_ && item.namespace_ != *query.namespace_) {
    return false;
  }
  if (query.state && item.state != *query.state) {
    return false;
  }
  if (query.queue && item.queue != *query.queue) {
    return false;
  }
  return std::all_of(query.selector.begin(), query.selector.end(),
                     [&item](const label_term& term) { return matches(item, term); });
}

std::string base64url(std::string_view data) {
  std::string text = kube::base64_encode(data);
  for (char& c : text) {
    c = c == '+' ? '-' : c == '/' ? '_' : c;
  }
  while (!text.empty() && text.back() == '=') {
    text.pop_back();
  }
  return text;
}

std::optional<std::string> from_base64url(std::string text) {
  for (char& c : text) {
    if (c == '+' || c == '/' || c == '=') {
      return std::nullopt;
    }
    c = c == '-' ? '+' : c == '_' ? '/' : c;
  }
  while (text.size() % 4 != 0) {
    text += '=';
  }
  return kube::base64_decode(text);
}

std::string json_string(const std::string& text) {
  return json(text).dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::optional<std::vector<label_term>> parse_label_selector(const std::string& text, std::string& error,
                                                            std::size_t max_terms) {
  std::vector<label_term> terms;
  if (text.find('(') != std::string::npos || text.find(" in ") != std::string::npos ||
      text.find(" notin ") != std::string::npos) {
    error = "labelSelector takes equality-based terms only (key=value, key!=value, key, !key)";
    return std::nullopt;
  }
  // Counted before anything is split or copied.
  const std::size_t count = static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1;
  if (count > max_terms) {
    error = "labelSelector has " + std::to_string(count) + " terms; at most " + std::to_string(max_terms) +
            " are taken (--max-selector-terms)";
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string term_text =
        trim(std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? text.size() + 1 : comma + 1;
    label_term term;
    if (term_text.empty()) {
      error = "labelSelector has an empty term";
      return std::nullopt;
    }
    if (term_text.front() == '!' && term_text.find('=') == std::string::npos) {
      term.test = label_term::op::not_exists;
      term.key = trim(std::string_view(term_text).substr(1));
    } else if (auto at = term_text.find("!="); at != std::string::npos) {
      term.test = label_term::op::not_equals;
      term.key = trim(std::string_view(term_text).substr(0, at));
      term.value = trim(std::string_view(term_text).substr(at + 2));
    } else if (auto eq = term_text.find('='); eq != std::string::npos) {
      term.test = label_term::op::equals;
      term.key = trim(std::string_view(term_text).substr(0, eq));
      std::size_t value_at = eq + 1 < term_text.size() && term_text[eq + 1] == '=' ? eq + 2 : eq + 1;
      term.value = trim(std::string_view(term_text).substr(value_at));
    } else {
      term.test = label_term::op::exists;
      term.key = term_text;
    }
    if (!valid_label_key(term.key)) {
      error = "labelSelector: " + quoted_short(term.key) +
              " is not a valid label key (an optional DNS-subdomain prefix of at most 253 characters and '/', then "
              "at most 63 letters, digits, '-', '_' or '.')";
      return std::nullopt;
    }
    if (!valid_label_value(term.value)) {
      error = "labelSelector: " + quoted_short(term.value) +
              " is not a valid label value (at most 63 letters, digits, '-', '_' or '.')";
      return std::nullopt;
    }
    terms.push_back(std::move(term));
  }
  return terms;
}

std::string continue_token(const std::string& list_path, std::uint64_t generation, const std::string& after) {
  return base64url("v1\n" + list_path + "\n" + hex16(generation) + "\n" + after);
}

std::optional<std::string> parse_list_query(const parsed_target& target, const resource_def& resource,
                                            const std::string& list_path, list_query& query,
                                            const request_limits& limits) {
  const auto& params = target.query;
  if (auto it = params.find("namespace"); it != params.end()) {
    if (!resource.namespaced) {
      return resource.id + " are not namespaced: drop ?namespace=";
    }
    query.namespace_ = it->second;
  }
  if (auto it = params.find("state"); it != params.end()) {
    if (it->second.empty()) {
      return "state= needs a state label, such as state=Pending";
    }
    if (it->second.size() > max_state_label) {
      return "state= takes a state label of at most " + std::to_string(max_state_label) + " characters, not " +
             quoted_short(it->second);
    }
    query.state = it->second;
  }
  if (auto it = params.find("queue"); it != params.end()) {
    if (it->second.empty()) {
      return "queue= needs a Local Queue name";
    }
    if (!valid_name(it->second)) {
      return "queue= takes a Local Queue name (1 to 253 characters, no '/'), not " + quoted_short(it->second);
    }
    query.queue = it->second;
  }
  if (auto it = params.find("labelSelector"); it != params.end()) {
    std::string error;
    auto terms = parse_label_selector(it->second, error, limits.max_selector_terms);
    if (!terms) {
      return error;
    }
    query.selector = std::move(*terms);
  }
  if (auto it = params.find("limit"); it != params.end()) {
    const std::string& text = it->second;
    std::size_t limit = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), limit);
    if (error != std::errc() || end != text.data() + text.size() || text.empty() || limit == 0 ||
        limit > max_list_limit) {
      return "limit must be a whole number from 1 to " + std::to_string(max_list_limit) + ", not " + quoted_short(text);
    }
    query.limit = limit;
    query.paged = true;
  }
  if (auto it = params.find("continue"); it != params.end()) {
    query.paged = true;
    const std::string damaged =
        "continue must be a token from the \"continue\" field of a page of " + list_path + " (this one is damaged)";
    std::optional<std::string> decoded = from_base64url(it->second);
    const std::string prefix = "v1\n" + list_path + "\n";
    if (!decoded || !decoded->starts_with(prefix)) {
      return "continue must be a token from the \"continue\" field of a page of " + list_path + " (this one is not)";
    }
    std::string rest = decoded->substr(prefix.size());
    auto newline = rest.find('\n');
    if (newline != 16 || rest.find_first_not_of("0123456789abcdef") < 16) {
      return damaged;
    }
    query.after = rest.substr(newline + 1);
    // A computed page continues by position: a whole number, nothing else.
    if (resource.list_computed &&
        (query.after->empty() || query.after->size() > 9 || query.after->find_first_not_of("0123456789") != std::string::npos)) {
      return damaged;
    }
  }
  return std::nullopt;
}

list_page_render::list_page_render(std::shared_ptr<const list_model> model, list_query query, std::string list_path,
                                   list_cut cut)
    : model_(std::move(model)), query_(std::move(query)), list_path_(std::move(list_path)), cut_(std::move(cut)) {
  const auto& items = model_->items;
  end_ = items.size();
  if (query_.namespace_ && !model_->computed) {
    // Items are in key order, so a namespace's items are one run.
    index_ = end_ = 0;
    for (const namespace_run& run : model_->runs) {
      if (run.namespace_ == *query_.namespace_) {
        index_ = run.begin;
        end_ = run.end;
        break;
      }
    }
  }
  if (query_.after) {
    std::size_t from = items.size();
    if (model_->computed) {
      std::size_t position = 0;
      auto [end, error] = std::from_chars(query_.after->data(), query_.after->data() + query_.after->size(), position);
      from = error == std::errc() ? std::min(position, items.size()) : items.size();
    } else {
      // The first key after the cursor: items are in key order (the store's).
      from = static_cast<std::size_t>(
          std::upper_bound(items.begin(), items.end(), *query_.after,
                           [](const std::string& key, const list_item& item) { return key < item.key; }) -
          items.begin());
    }
    index_ = std::max(index_, from);
  }
  index_ = std::min(index_, end_);
}

bool list_page_render::shown(const list_item& item) const {
  return selected(item, query_) && (!cut_.namespaces || cut_.namespaces->contains(item.namespace_));
}

std::optional<std::size_t> list_page_render::remaining_after(std::size_t index) const {
  // As the API server does for a list filtered by a selector: not counted when that would mean
  // reading every item after the page.
  if (!query_.selector.empty() || (query_.state && query_.queue)) {
    return std::nullopt;
  }
  const std::vector<std::uint32_t>* positions = nullptr;
  if (query_.state || query_.queue) {
    const auto& by = query_.state ? model_->positions_by_state : model_->positions_by_queue;
    auto it = by.find(query_.state ? *query_.state : *query_.queue);
    if (it == by.end()) {
      return 0;
    }
    positions = &it->second;
  }
  auto count = [positions](std::size_t from, std::size_t to) -> std::size_t {
    if (from >= to) {
      return 0;
    }
    if (positions == nullptr) {
      return to - from;
    }
    return static_cast<std::size_t>(std::lower_bound(positions->begin(), positions->end(), to) -
                                    std::lower_bound(positions->begin(), positions->end(), from));
  };
  if (!cut_.namespaces) {
    return count(index, end_);
  }
  std::size_t total = 0;
  for (const namespace_run& run : model_->runs) {
    if (cut_.namespaces->contains(run.namespace_)) {
      total += count(std::max(run.begin, index), std::min(run.end, end_));
    }
  }
  return total;
}

bool list_page_render::step(std::chrono::microseconds budget) {
  if (done_) {
    return true;
  }
  const auto until = std::chrono::steady_clock::now() + budget;
  const auto& items = model_->items;
  // The clock is read every few items: an item's test is a few comparisons.
  constexpr std::size_t items_between_clock_reads = 32;
  std::size_t looked = 0;
  for (; index_ < end_; ++index_) {
    if (++looked % items_between_clock_reads == 0 && std::chrono::steady_clock::now() >= until) {
      return false;
    }
    const list_item& item = items[index_];
    if (!shown(item)) {
      continue;
    }
    if (query_.limit != 0 && returned_ == query_.limit) {
      more_ = true;  // the page is full and this item matches too: there is a next page
      break;
    }
    page_ += returned_ == 0 ? "" : ",";
    if (cut_.hidden && !item.joins.empty()) {
      page_ += redact_joins(item.body, item.joins, cut_.hidden);
    } else {
      page_ += item.body;
    }
    ++returned_;
    last_key_ = item.key;
    last_position_ = index_ + 1;
  }
  remaining_ = remaining_after(index_);
  finish();
  return true;
}

void list_page_render::finish() {
  const list_model& model = *model_;
  std::string& body = body_;
  body.reserve(page_.size() + 256);
  body += "{";
  if (query_.paged) {
    body += "\"continue\":";
    if (!more_) {
      body += "null";
    } else {
      body += json_string(continue_token(list_path_, model.stamp.digest(),
                                         model.computed ? std::to_string(last_position_) : last_key_));
    }
    body += ",";
  }
  if (cut_.filtered) {
    body += "\"filtered\":true,";
  }
  body += "\"incomplete\":";
  body += model.incomplete ? "true" : "false";
  body += ",\"incompleteReason\":";
  body += model.incomplete ? json_string(model.incomplete_reason) : std::string("null");
  body += ",\"items\":[";
  body += page_;
  body += "]";
  if (query_.paged && remaining_) {
    body += ",\"remainingItemCount\":" + std::to_string(*remaining_);
  }
  body += "}";
  page_.clear();
  page_.shrink_to_fit();
  done_ = true;
}

std::string list_page_render::take() {
  return std::move(body_);
}

std::string render_list_page(const list_model& model, const list_query& query, const std::string& list_path,
                             const list_cut* cut) {
  // The model outlives the call: a shared_ptr that does not own it.
  list_page_render render(std::shared_ptr<const list_model>(std::shared_ptr<const list_model>(), &model), query,
                          list_path, cut != nullptr ? *cut : list_cut{});
  while (!render.step(std::chrono::hours(24))) {
  }
  return render.take();
}

}  // namespace sextant
