#include "auth/caller_cuts.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "auth/cut_memo.hpp"
#include "util/key_encoding.hpp"
#include "util/sha256.hpp"

namespace sextant {

namespace {

// The value of label `name` in a Prometheus series line, or empty.
std::string series_label(std::string_view line, std::string_view name) {
  const std::string key = std::string(name) + "=\"";
  for (std::size_t at = line.find(key); at != std::string_view::npos; at = line.find(key, at + 1)) {
    if (at == 0 || line[at - 1] == '{' || line[at - 1] == ',') {
      const std::size_t from = at + key.size();
      return std::string(line.substr(from, line.find('"', from) - from));
    }
  }
  return {};
}

constexpr char series_separator = '\x1f';

std::string hidden_sentence(const std::string& plural, const std::string& namespace_) {
  return "you may not read " + plural + (namespace_.empty() ? "" : " in " + namespace_);
}

}  // namespace

namespace {

// The hidden scopes and their sentences, into a cut's identity (a list's or a joined answer's).
void add_hidden(key_builder& key, const std::map<std::pair<kind_key, std::string>, std::string>& hidden) {
  key.count(hidden.size());
  for (const auto& [scope, sentence] : hidden) {
    key.add(scope.first.group).add(scope.first.kind).add(scope.second).add(sentence);
  }
}

}  // namespace

std::string cut_identity(const list_cut& cut) {
  key_builder key;
  key.add(cut.filtered ? "filtered" : "whole");
  if (cut.namespaces) {
    key.count(cut.namespaces->size());
    for (const std::string& namespace_ : *cut.namespaces) {
      key.add(namespace_);
    }
  } else {
    key.add("every namespace");
  }
  add_hidden(key, cut.hidden_scopes);
  return sha256_hex(key.text());
}

caller_cuts::caller_cuts(request_access& access, plural_lookup plural_of)
    : access_(access), plural_of_(std::move(plural_of)) {}

std::optional<cut_refusal> caller_cuts::refused(const access_check& check) {
  std::optional<bool> allowed = access_.may(check);
  if (!allowed) {
    return cut_refusal{true, {}};
  }
  if (*allowed) {
    return std::nullopt;
  }
  return cut_refusal{false, access_.who().user + " may not " + check.words()};
}

std::optional<bool> caller_cuts::may_list(const kind_key& type, const std::string& namespace_) {
  const std::string plural = plural_of(type);
  std::optional<bool> cluster_wide = access_.may(access_check::on_resource("list", type.group, plural));
  if (!cluster_wide || *cluster_wide || namespace_.empty()) {
    return cluster_wide;
  }
  return access_.may(access_check::on_resource("list", type.group, plural, namespace_));
}

std::optional<std::string> caller_cuts::hidden_for(const join_span& span) {
  const std::string plural = plural_of(span.type);
  std::optional<bool> allowed = access_.may(access_check::on_resource("get", span.type.group, plural, span.namespace_));
  if (allowed && *allowed) {
    return std::nullopt;
  }
  // Not decided yet counts as not allowed: such an answer is never served, and nothing leaks.
  return hidden_sentence(plural, span.namespace_);
}

joined_cut caller_cuts::hidden_joins(const std::vector<join_span>& joins) {
  joined_cut cut;
  std::set<std::pair<kind_key, std::string>> asked;
  for (const join_span& span : joins) {
    if (asked.emplace(span.type, span.namespace_).second) {
      if (std::optional<std::string> sentence = hidden_for(span)) {
        cut.hidden.emplace(std::pair(span.type, span.namespace_), std::move(*sentence));
      }
    }
  }
  if (!cut.hidden.empty()) {
    key_builder key;
    add_hidden(key, cut.hidden);
    cut.identity = sha256_hex(key.text());
  }
  return cut;
}

std::optional<cut_refusal> caller_cuts::refused_made_of(const std::vector<kind_key>& made_of, const std::string& what) {
  // Every question in one round: each `may` notes what it cannot decide yet.
  std::vector<std::pair<std::string, std::optional<bool>>> allowed;
  for (const kind_key& kind : made_of) {
    const std::string plural = plural_of(kind);
    allowed.emplace_back(plural, access_.may(access_check::on_resource("list", kind.group, plural)));
  }
  for (const auto& [plural, allowed_here] : allowed) {
    if (allowed_here && !*allowed_here) {
      return cut_refusal{false, access_.who().user + " may not list " + plural + ", which " + what + " shows"};
    }
  }
  if (!access_.decided()) {
    return cut_refusal{true, {}};
  }
  return std::nullopt;
}

const kept_cut* caller_cuts::recalled(const std::string& what, const void* source) {
  cut_memo* memo = access_.memo();
  return memo == nullptr ? nullptr
                         : memo->find(key_builder().add(access_.caller_part()).add(what).text(), source,
                                      std::chrono::steady_clock::now());
}

void caller_cuts::remember(const std::string& what, const std::shared_ptr<const void>& source, kept_cut cut) {
  cut_memo* memo = access_.memo();
  if (memo == nullptr || !access_.decided()) {
    return;
  }
  memo->keep(key_builder().add(access_.caller_part()).add(what).text(), source, std::move(cut),
             std::chrono::steady_clock::now(), access_.decisions_hold_until());
}

list_decision caller_cuts::list_page(const std::vector<namespace_run>& runs, const listed_kind& listed,
                                     const std::optional<std::string>& asked_namespace,
                                     const std::shared_ptr<const void>& model) {
  if (!model) {
    return decide_list_page(runs, listed, asked_namespace);
  }
  // The model names the kind and its runs; the namespace asked for, the rest.
  const std::string what = key_builder()
                               .add("list")
                               .add(std::to_string(reinterpret_cast<std::uintptr_t>(model.get())))
                               .add(asked_namespace ? "in" : "all")
                               .add(asked_namespace.value_or(std::string()))
                               .take();
  if (const kept_cut* kept = recalled(what, model.get())) {
    if (const auto* decided = std::get_if<list_decision>(kept)) {
      return *decided;
    }
  }
  list_decision decided = decide_list_page(runs, listed, asked_namespace);
  remember(what, model, decided);
  return decided;
}

list_decision caller_cuts::decide_list_page(const std::vector<namespace_run>& runs, const listed_kind& listed,
                                            const std::optional<std::string>& asked_namespace) {
  const cut_refusal undecided{true, {}};
  list_cut cut;
  if (!listed.type.kind.empty()) {
    const std::string& group = listed.type.group;
    std::optional<bool> cluster_wide = access_.may(access_check::on_resource("list", group, listed.plural));
    if (!cluster_wide) {
      return {undecided, false, nullptr};
    }
    if (!*cluster_wide) {
      if (!listed.namespaced || asked_namespace) {
        // One scope asked for: the caller may list there, or gets the API server's 403.
        if (auto refusal = refused(
                access_check::on_resource("list", group, listed.plural, asked_namespace.value_or(std::string())))) {
          return {std::move(refusal), true, nullptr};
        }
      } else {
        // One question per namespace (the model's runs), never one per item.
        std::set<std::string> readable;
        for (const namespace_run& run : runs) {
          std::optional<bool> allowed =
              access_.may(access_check::on_resource("list", group, listed.plural, run.namespace_));
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
  // The joined entries of the items shown, each kind and namespace asked about once: each scope
  // asked about, with the sentence it is hidden behind (nullopt: shown).
  auto asked = std::make_shared<std::map<std::pair<kind_key, std::string>, std::optional<std::string>>>();
  for (const namespace_run& run : runs) {
    if (cut.namespaces && !cut.namespaces->contains(run.namespace_)) {
      continue;
    }
    for (const auto& [type, namespace_] : run.join_scopes) {
      auto [it, first] = asked->try_emplace(std::pair(type, namespace_));
      if (first) {
        it->second = hidden_for(join_span{0, 0, type, namespace_});
        if (it->second) {
          cut.hidden_scopes.emplace(it->first, *it->second);
        }
      }
    }
  }
  if (!access_.decided()) {
    return {undecided, false, nullptr};
  }
  if (!cut.filtered && cut.hidden_scopes.empty()) {
    return {};
  }
  if (!cut.hidden_scopes.empty()) {
    // Decided here, once: the page may be rendered after this request is gone, and is served to
    // every caller whose cut is the same (cut_identity). A scope the runs did not name (none
    // should be) is hidden: a cut never shows what it was not asked about.
    cut.hidden = [asked = std::shared_ptr<const decltype(asked)::element_type>(std::move(asked)),
                  plural_of = plural_of_](const join_span& span) -> std::optional<std::string> {
      if (auto it = asked->find(std::pair(span.type, span.namespace_)); it != asked->end()) {
        return it->second;
      }
      return hidden_sentence(plural_of(span.type), span.namespace_);
    };
  }
  cut.identity = cut_identity(cut);
  return {std::nullopt, false, std::make_shared<const list_cut>(std::move(cut))};
}

void metrics_cut::named(const std::string& category, const kind_key& type, const std::string& namespace_,
                        const std::string& name) {
  std::optional<bool> visible = cuts_.may_list(type, namespace_);
  if (!visible || !*visible) {
    hidden_.insert(category + series_separator + type.kind + series_separator + namespace_ + series_separator + name);
    ++hidden_per_category_[category];
  }
}

std::string metrics_cut::apply(std::string text) const {
  if (hidden_.empty()) {
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
      const std::string key = series_label(line, "category") + series_separator + series_label(line, "kind") +
                              series_separator + series_label(line, "namespace") + series_separator +
                              series_label(line, "name");
      if (hidden_.contains(key)) {
        continue;
      }
    } else if (line.starts_with("sextant_problems{")) {
      auto less = hidden_per_category_.find(series_label(line, "category"));
      const std::size_t blank = line.rfind(' ');
      if (less != hidden_per_category_.end() && blank != std::string_view::npos) {
        const double count = std::strtod(std::string(line.substr(blank + 1)).c_str(), nullptr) - less->second;
        out += std::string(line.substr(0, blank + 1)) + std::to_string(static_cast<long long>(count)) + "\n";
        continue;
      }
    }
    out += line;
  }
  return out;
}

}  // namespace sextant
