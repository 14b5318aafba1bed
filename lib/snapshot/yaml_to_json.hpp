#pragma once
// Converts yaml-cpp nodes to JSON the way Kubernetes' YAML reader types plain scalars:
// null, booleans, integers and floats by their YAML 1.2 core-schema spelling, the rest
// strings; quoted scalars are always strings ("1", "true" stay text).
#include <yaml-cpp/yaml.h>

#include "util/json.hpp"

namespace sextant {

json yaml_to_json(const YAML::Node& node);

}  // namespace sextant
