#pragma once
// Base64 (RFC 4648, standard alphabet) for kubeconfig `*-data` fields and basic auth.
#include <optional>
#include <string>
#include <string_view>

namespace sextant::kube {

std::string base64_encode(std::string_view data);
// Decodes, ignoring whitespace (kubeconfigs wrap long values); nullopt on any other stray
// character or a bad length.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace sextant::kube
