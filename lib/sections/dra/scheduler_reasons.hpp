#pragma once
// Recognises the DRA reasons in the scheduler's own words (the PodScheduled condition's
// message), as kube-scheduler's DynamicResources plugin writes them: PreFilter texts without
// counts, Filter texts inside the "0/N nodes are available: ..." histogram with their node
// counts, PreBind binding failures and timeouts, and the PostFilter deallocation notes.
// Everything else in the message (taints, affinity, CPU) is left to the message itself.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "store/packed_value.hpp"

namespace sextant::dra {

struct dra_reason {
  std::string id;        // stable: "cannot-allocate", "claim-not-created", ...
  std::string text;      // in plain words
  std::string source;    // "scheduler" (its message) or "objects" (what the objects show)
  std::string fragment;  // the scheduler's words this was read from; empty for objects
  std::string claim;     // the claim named, when one is
  std::string request;
  std::string device_class;
  std::string node;
  std::optional<std::int64_t> nodes;  // how many nodes gave this reason (histogram)

  json to_json() const;
  bool same_as(const dra_reason& other) const;
};

struct scheduler_reading {
  std::optional<std::int64_t> total_nodes;  // N of "0/N nodes are available"
  std::vector<dra_reason> reasons;          // in the order the message gives them
};

scheduler_reading recognise_scheduler_message(std::string_view message);

}  // namespace sextant::dra
