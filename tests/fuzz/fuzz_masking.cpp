// Masking reads text from objects: no input may crash it, and no value under a secret-looking key
// (or env_vars) may survive. The masked YAML is read back and every such value must be <hidden>.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "util/masking/secrets.hpp"

namespace {

void require_hidden(const YAML::Node& node, int depth);

void require_all_hidden(const YAML::Node& node, int depth) {
  if (depth > 200) {
    return;
  }
  if (node.IsMap()) {
    for (auto entry : node) {
      require_all_hidden(entry.second, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (auto item : node) {
      require_all_hidden(item, depth + 1);
    }
  } else if (node.IsScalar() && node.Scalar() != sextant::masking::hidden) {
    std::abort();  // a value under a secret-looking key survived
  }
}

void require_hidden(const YAML::Node& node, int depth) {
  if (depth > 200) {
    return;
  }
  if (node.IsMap()) {
    for (auto entry : node) {
      if (entry.first.IsScalar() &&
          (entry.first.Scalar() == "env_vars" || sextant::masking::secret_looking_key(entry.first.Scalar()))) {
        require_all_hidden(entry.second, depth + 1);
      } else {
        require_hidden(entry.second, depth + 1);
      }
    }
  } else if (node.IsSequence()) {
    for (auto item : node) {
      require_hidden(item, depth + 1);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)sextant::masking::secret_looking_key(text);
  (void)sextant::masking::mask_command_line(text);
  (void)sextant::masking::operator_text(text);
  if (auto masked = sextant::masking::mask_yaml(text)) {
    try {
      for (const YAML::Node& document : YAML::LoadAll(*masked)) {
        require_hidden(document, 0);
      }
    } catch (const YAML::Exception&) {
      // The emitter wrote what the parser reads back; a failure here is not a leak.
    }
  }
  return 0;
}
