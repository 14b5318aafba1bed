#pragma once
// Converts yaml-cpp nodes to JSON the way Kubernetes' YAML reader types plain scalars:
// null, booleans, integers and floats by their YAML 1.2 core-schema spelling, the rest
// strings; quoted scalars are always strings ("1", "true" stay text).
//
// yaml-cpp keeps an alias as a second reference to its anchor's node, so a document of a few
// hundred bytes can name billions of nodes ("billion laughs"): converting it writes each one.
// The budget bounds what one document may expand to.
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "util/json.hpp"

namespace sextant {

struct yaml_expansion_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether a plain scalar is spelled as YAML 1.2's core-schema float:
// [-+]? ( . [0-9]+ | [0-9]+ ( . [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?, read in one pass.
bool yaml_core_float(std::string_view text);

// How many nodes a document of `bytes` may convert to: without aliases a node takes at least a
// byte or two of text, so twice its size, plus `alias_nodes` for what its aliases repeat.
std::size_t yaml_node_budget(std::size_t bytes, std::size_t alias_nodes);

// Throws yaml_expansion_error once more than `node_budget` nodes were converted.
json yaml_to_json(const YAML::Node& node, std::size_t node_budget);
// For YAML the daemon trusts (its own tests and manifests): no budget.
inline json yaml_to_json(const YAML::Node& node) {
  return yaml_to_json(node, std::numeric_limits<std::size_t>::max());
}

}  // namespace sextant
