#include "api/list_query.hpp"

#include <algorithm>
#include <charconv>

#include "kube/base64.hpp"
#include "util/digest.hpp"
#include "util/object_names.hpp"

namespace sextant {
namespace {

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

std::optional<std::vector<label_term>> parse_label_selector(const std::string& text, std::string& error) {
  std::vector<label_term> terms;
  if (text.find('(') != std::string::npos || text.find(" in ") != std::string::npos ||
      text.find(" notin ") != std::string::npos) {
    error = "labelSelector takes equality-based terms only (key=value, key!=value, key, !key)";
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
      error = "labelSelector: \"" + term.key + "\" is not a valid label key";
      return std::nullopt;
    }
    if (!valid_label_value(term.value)) {
      error = "labelSelector: \"" + term.value + "\" is not a valid label value";
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
                                            const std::string& list_path, list_query& query) {
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
    query.state = it->second;
  }
  if (auto it = params.find("queue"); it != params.end()) {
    if (it->second.empty()) {
      return "queue= needs a Local Queue name";
    }
    query.queue = it->second;
  }
  if (auto it = params.find("labelSelector"); it != params.end()) {
    std::string error;
    auto terms = parse_label_selector(it->second, error);
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
      return "limit must be a whole number from 1 to " + std::to_string(max_list_limit) + ", not \"" +
             text.substr(0, 40) + "\"";
    }
    query.limit = limit;
    query.paged = true;
  }
  if (auto it = params.find("continue"); it != params.end()) {
    query.paged = true;
    std::optional<std::string> decoded = from_base64url(it->second);
    const std::string prefix = "v1\n" + list_path + "\n";
    if (!decoded || !decoded->starts_with(prefix)) {
      return "continue must be a token from the \"continue\" field of a page of " + list_path + " (this one is not)";
    }
    std::string rest = decoded->substr(prefix.size());
    auto newline = rest.find('\n');
    if (newline != 16 || rest.find_first_not_of("0123456789abcdef") < 16) {
      return "continue must be a token from the \"continue\" field of a page of " + list_path +
             " (this one is damaged)";
    }
    query.after = rest.substr(newline + 1);
  }
  return std::nullopt;
}

std::string render_list_page(const list_model& model, const list_query& query, const std::string& list_path,
                             const list_cut* cut) {
  const auto& items = model.items;
  auto shown = [&query, cut](const list_item& item) {
    return selected(item, query) && (cut == nullptr || !cut->visible || cut->visible(item));
  };
  std::size_t from = 0;
  if (query.after) {
    if (model.computed) {
      std::size_t position = 0;
      auto [end, error] = std::from_chars(query.after->data(), query.after->data() + query.after->size(), position);
      from = error == std::errc() ? std::min(position, items.size()) : items.size();
    } else {
      // The first key after the cursor: items are in key order (the store's).
      from = static_cast<std::size_t>(
          std::upper_bound(items.begin(), items.end(), *query.after,
                           [](const std::string& key, const list_item& item) { return key < item.key; }) -
          items.begin());
    }
  }
  std::string body = "{";
  std::string page;
  std::size_t returned = 0;
  std::size_t index = from;
  std::string last_key;
  std::size_t last_position = 0;
  for (; index < items.size(); ++index) {
    const list_item& item = items[index];
    if (!shown(item)) {
      continue;
    }
    if (query.limit != 0 && returned == query.limit) {
      break;
    }
    page += returned == 0 ? "" : ",";
    if (cut != nullptr && cut->hidden && !item.joins.empty()) {
      page += redact_joins(item.body, item.joins, cut->hidden);
    } else {
      page += item.body;
    }
    ++returned;
    last_key = item.key;
    last_position = index + 1;
  }
  std::size_t remaining = 0;
  for (std::size_t rest = index; rest < items.size(); ++rest) {
    remaining += shown(items[rest]) ? 1 : 0;
  }
  if (query.paged) {
    body += "\"continue\":";
    if (remaining == 0) {
      body += "null";
    } else {
      body += json_string(
          continue_token(list_path, model.stamp.digest(), model.computed ? std::to_string(last_position) : last_key));
    }
    body += ",";
  }
  if (cut != nullptr && cut->filtered) {
    body += "\"filtered\":true,";
  }
  body += "\"incomplete\":";
  body += model.incomplete ? "true" : "false";
  body += ",\"incompleteReason\":";
  body += model.incomplete ? json_string(model.incomplete_reason) : std::string("null");
  body += ",\"items\":[";
  body += page;
  body += "]";
  if (query.paged) {
    body += ",\"remainingItemCount\":" + std::to_string(remaining);
  }
  body += "}";
  return body;
}

}  // namespace sextant
