#include "api/out_of_date.hpp"

#include "util/masking/secrets.hpp"

namespace sextant {

std::string out_of_date_reason(const object_store& store, const kind_key& type) {
  const std::optional<watch_interruption> broken = store.interrupted(type);
  if (!broken) {
    return {};
  }
  std::string reason = "may be out of date: its watch has failed since " + format_rfc3339(broken->since);
  if (!broken->reason.empty()) {
    // The failure's words can carry what the API server echoed back: masked as every text is.
    reason += " (" + masking::operator_text(broken->reason) + ")";
  }
  return reason;
}

std::string with_out_of_date(std::string reason, const object_store& store, const kind_key& type) {
  const std::string stale = out_of_date_reason(store, type);
  if (stale.empty()) {
    return reason;
  }
  return reason.empty() ? stale : reason + "; " + stale;
}

}  // namespace sextant
