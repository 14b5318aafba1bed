#include "sections/common/lists.hpp"

namespace sextant {

bool list_complete(const view_context& context, const kind_key& type) {
  return context.store.completeness(type).complete();
}

std::string incomplete_reason(const view_context& context, const kind_key& type, std::size_t cap,
                              std::string_view noun) {
  const list_completeness completeness = context.store.completeness(type);
  if (cap != 0 && context.store.count(type) > cap) {
    return cut_reason(cap, noun.empty() ? std::string_view(type.kind) : noun);
  }
  if (!completeness.reason.empty() || completeness.complete()) {
    return completeness.reason;
  }
  switch (completeness.value) {
    case list_completeness::state::truncated:
      return cap != 0 ? cut_reason(cap, noun.empty() ? std::string_view(type.kind) : noun) : "cut short";
    case list_completeness::state::unreadable:
      return "cannot be read";
    case list_completeness::state::not_synced:
    case list_completeness::state::complete:
      break;
  }
  return "not read yet";
}

std::string may_be_incomplete(std::string_view what, std::string_view reason) {
  return std::string(what) + " may be incomplete: " + std::string(reason) + ".";
}

json exists_json(bool found, const view_context& context, const kind_key& type, bool said_missing) {
  if (found) {
    return true;
  }
  if (said_missing || list_complete(context, type)) {
    return false;
  }
  return std::string(cannot_tell);
}

json exists_json(const view_context& context, const kind_key& type, const std::string& namespace_,
                 const std::string& name) {
  return exists_json(context.store.get(type, namespace_, name) != nullptr, context, type);
}

}  // namespace sextant
