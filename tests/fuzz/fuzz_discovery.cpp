// Discovery documents come from the API server and from aggregated API servers the cluster's
// operators run: any JSON must parse into a document, or be skipped, without a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kube/discovery_document.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  sextant::json body = sextant::json::parse(text, nullptr, false);
  if (body.is_discarded())
    return 0;
  sextant::kube::discovery_document document;
  sextant::kube::parse_aggregated_discovery(body, document);
  sextant::kube::parse_group_list(body, document);
  sextant::kube::parse_resource_list(body, "resource.k8s.io", "v1", document);
  (void)sextant::kube::parse_server_minor(body);
  sextant::served_kinds served;
  sextant::kube::apply_discovery(document, served);
  return 0;
}
