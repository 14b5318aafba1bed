#pragma once
// Core NodeSelectors (allocations, slices, devices) shown as text, and the one node a selector
// pins when it names exactly one.
#include <optional>
#include <string>

#include "store/packed_value.hpp"

namespace sextant::dra {

// "gpu.example.com/zone in (a, b) and metadata.name in (n1)", terms joined with " or ".
// Empty when the selector has no terms.
std::string node_selector_text(const packed_value& selector);

// The node a selector pins: one term whose only requirement is `metadata.name In [node]` (what
// the scheduler writes for node-local devices). nullopt for any other selector.
std::optional<std::string> pinned_node(const packed_value& selector);

}  // namespace sextant::dra
