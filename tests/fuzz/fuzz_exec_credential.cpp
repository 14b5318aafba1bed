// A credential plugin's standard output is another program's text: it must be read or
// refused with a reason, never crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "kube/exec_credential.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view output(reinterpret_cast<const char*>(data), size);
  (void)sextant::kube::parse_exec_credential(output, "client.authentication.k8s.io/v1");
  (void)sextant::kube::parse_exec_credential(output, "client.authentication.k8s.io/v1beta1");
  return 0;
}
