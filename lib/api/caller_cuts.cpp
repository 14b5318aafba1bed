// Per-caller cuts (--auth=kubernetes): what one caller may see of an answer rendered once for
// all. They stay in api/ beside the answers they cut: auth/ decides (request_access), the router
// cuts its own answers with the decisions, and auth/ including api/ would make a folder cycle.

#include "api/api_router.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/answer_key.hpp"
#include "api/gzip_body.hpp"
#include "api/list_query.hpp"
#include "api/resource_views.hpp"
#include "api/route_answers.hpp"
#include "api/view_cache.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

namespace {

// The value of label `name` in a Prometheus series line, or empty.
std::string label_value(std::string_view line, std::string_view name) {
  const std::string key = std::string(name) + "=\"";
  for (std::size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at == 0 || line[at - 1] == '{' || line[at - 1] == ',') {
      const std::size_t from = at + key.size();
      return std::string(line.substr(from, line.find('"', from) - from));
    }
  }
  return {};
}

}  // namespace

std::optional<api_response> api_router::refused(const access_check& check) {
  std::optional<bool> allowed = access_->may(check);
  if (!allowed) {
    return undecided();
  }
  if (*allowed) {
    return std::nullopt;
  }
  return error_response(403, "Forbidden", access_->who().user + " may not " + check.words());
}

std::optional<bool> api_router::may_list(const kind_key& type, const std::string& namespace_) {
  const std::string plural = plural_of(type);
  std::optional<bool> cluster_wide = access_->may(access_check::on_resource("list", type.group, plural));
  if (!cluster_wide || *cluster_wide || namespace_.empty()) {
    return cluster_wide;
  }
  return access_->may(access_check::on_resource("list", type.group, plural, namespace_));
}

std::optional<std::string> api_router::hidden_for(const join_span& span) {
  const std::string plural = plural_of(span.type);
  std::optional<bool> allowed =
      access_->may(access_check::on_resource("get", span.type.group, plural, span.namespace_));
  if (allowed && *allowed) {
    return std::nullopt;
  }
  // Not decided yet counts as not allowed: such an answer is never served, and nothing leaks.
  return "you may not read " + plural + (span.namespace_.empty() ? "" : " in " + span.namespace_);
}

std::string api_router::plural_of(const kind_key& type) const {
  if (const served_kind* served = state_.served.find(type); served != nullptr && !served->plural.empty()) {
    return served->plural;  // discovery's word; a snapshot's inferred kinds have none
  }
  for (const section& s : state_.catalog.sections()) {
    for (const resource_def& resource : s.resources) {
      if (resource.type == type && !resource.plural.empty()) {
        return resource.plural;
      }
    }
  }
  // A kind neither served nor shown: the API's usual plural. Asked of the authorizer, a wrong
  // guess is denied, which hides rather than shows.
  std::string plural;
  for (char c : type.kind) {
    plural += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return plural + "s";
}

std::string api_router::caller_metrics(std::string text) {
  // The series that name an object (sextant_problem) go when the caller may not list it, and
  // the per-category counts count only what is left.
  std::set<std::string> hidden;
  std::map<std::string, int> hidden_per_category;
  constexpr char separator = '\x1f';
  for (const problem& p : state_.problems.current()) {
    std::optional<bool> visible = may_list(p.type, p.namespace_);
    if (!visible || !*visible) {
      hidden.insert(p.category + separator + p.type.kind + separator + p.namespace_ + separator + p.name);
      ++hidden_per_category[p.category];
    }
  }
  if (hidden.empty()) {
    return text;
  }
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  while (from < text.size()) {
    std::size_t end = text.find('\n', from);
    end = end == std::string::npos ? text.size() : end + 1;
    std::string_view line(text.data() + from, end - from);
    from = end;
    if (line.starts_with("sextant_problem{")) {
      const std::string key = label_value(line, "category") + separator + label_value(line, "kind") + separator +
                              label_value(line, "namespace") + separator + label_value(line, "name");
      if (hidden.contains(key)) {
        continue;
      }
    } else if (line.starts_with("sextant_problems{")) {
      auto less = hidden_per_category.find(label_value(line, "category"));
      const std::size_t blank = line.rfind(' ');
      if (less != hidden_per_category.end() && blank != std::string_view::npos) {
        const double count = std::strtod(std::string(line.substr(blank + 1)).c_str(), nullptr) - less->second;
        out += std::string(line.substr(0, blank + 1)) + std::to_string(static_cast<long long>(count)) + "\n";
        continue;
      }
    }
    out += line;
  }
  return out;
}

std::optional<api_response> api_router::refused_made_of(const std::vector<kind_key>& made_of, const std::string& what) {
  // Every question in one round: each `may` notes what it cannot decide yet.
  std::vector<std::pair<std::string, std::optional<bool>>> allowed;
  for (const kind_key& kind : made_of) {
    const std::string plural = plural_of(kind);
    allowed.emplace_back(plural, access_->may(access_check::on_resource("list", kind.group, plural)));
  }
  for (const auto& [plural, allowed_here] : allowed) {
    if (allowed_here && !*allowed_here) {
      return error_response(403, "Forbidden",
                            access_->who().user + " may not list " + plural + ", which " + what + " shows");
    }
  }
  if (!access_->decided()) {
    return undecided();
  }
  return std::nullopt;
}

caller_cut api_router::caller_page(const list_model& model, const resource_def& resource, const list_query& query,
                                   const std::string& route) {
  list_cut cut;
  if (!resource.type.kind.empty()) {
    const std::string& group = resource.type.group;
    std::optional<bool> cluster_wide = access_->may(access_check::on_resource("list", group, resource.plural));
    if (!cluster_wide) {
      return {undecided(), std::nullopt};
    }
    if (!*cluster_wide) {
      if (!resource.namespaced || query.namespace_) {
        // One scope asked for: the caller may list there, or gets the API server's 403.
        if (auto refusal = refused(
                access_check::on_resource("list", group, resource.plural, query.namespace_.value_or(std::string())))) {
          refusal->route = route;
          return {std::move(refusal), std::nullopt};
        }
      } else {
        // One question per namespace (the model's runs), never one per item.
        std::set<std::string> readable;
        for (const namespace_run& run : model.runs) {
          std::optional<bool> allowed =
              access_->may(access_check::on_resource("list", group, resource.plural, run.namespace_));
          if (allowed && *allowed) {
            readable.insert(run.namespace_);
          } else if (allowed) {
            cut.filtered = true;
          }
        }
        if (cut.filtered) {
          cut.namespaces = std::move(readable);
        }
      }
    }
  }
  // The joined entries of the items shown, each kind and namespace asked about once.
  bool hides = false;
  std::set<std::pair<kind_key, std::string>> asked;
  for (const namespace_run& run : model.runs) {
    if (cut.namespaces && !cut.namespaces->contains(run.namespace_)) {
      continue;
    }
    for (const auto& [type, namespace_] : run.join_scopes) {
      if (asked.emplace(type, namespace_).second && hidden_for(join_span{0, 0, type, namespace_})) {
        hides = true;
      }
    }
  }
  if (!access_->decided()) {
    return {undecided(), std::nullopt};
  }
  if (!cut.filtered && !hides) {
    return {};
  }
  if (hides) {
    cut.hidden = [this](const join_span& span) { return hidden_for(span); };
  }
  return {std::nullopt, std::move(cut)};
}

}  // namespace sextant
