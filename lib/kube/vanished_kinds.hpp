#pragma once
// A kind one discovery stops listing is not believed gone until the next discovery agrees.
//
// An API server that has just restarted answers discovery before it has installed every CRD's
// paths (seen in the soak: Kueue's seven kinds missing for one discovery), and a watch that gets
// 404 meanwhile asks for discovery at once. Believing one such answer would drop the kinds'
// objects and call their lists empty and complete until the next discovery a minute later:
// "none" for "not known". So a kind that vanishes is kept, as served before and shown as perhaps
// out of date, and discovery is asked again shortly; only a second discovery without it drops it.
#include <chrono>
#include <set>
#include <vector>

#include "store/served_kinds.hpp"

namespace sextant::kube {

// How long after a discovery that lacked a known kind the next one is asked: long enough for a
// starting server to install its CRDs' paths, short enough that a CRD really deleted goes soon.
inline constexpr std::chrono::seconds vanished_recheck_delay{5};

struct vanished_kinds {
  // Served before, missing from this discovery for the first time: to be served as before.
  std::vector<served_kind> kept;
  // Missing from a second discovery in a row: gone.
  std::vector<kind_key> dropped;
  // The kinds of `kept`: the next discovery's `pending`.
  std::set<kind_key> pending;
};

// `before` is what was served before this discovery (kinds kept on one discovery's word
// included), `after` what this discovery serves, `pending` the kinds kept by the previous one.
vanished_kinds confirm_vanished(const std::vector<served_kind>& before, const served_kinds& after,
                                const std::set<kind_key>& pending);

}  // namespace sextant::kube
