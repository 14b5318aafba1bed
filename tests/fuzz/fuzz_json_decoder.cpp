// Feeds arbitrary bytes to every decoding entry point the live API path uses: objects, lists
// and watch lines, typed and untyped. Decoding must never crash or throw.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ingest/json_decoder.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sextant::ingest_profiles profiles = [] {
    sextant::ingest_profiles p;
    p.set({"kueue.x-k8s.io", "Workload"}, sextant::ingest_profile::keeping({"spec.podSets.count", "status"}));
    return p;
  }();
  sextant::json_decoder decoder(profiles);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const sextant::kind_key workload{"kueue.x-k8s.io", "Workload"};
  (void)decoder.decode_object(text);
  (void)decoder.decode_object(text, &workload);
  (void)decoder.decode_untyped(text);
  (void)decoder.decode_list(text);
  (void)decoder.decode_list(text, "kueue.x-k8s.io/v1beta2", "Workload");
  (void)decoder.decode_watch_event(text, workload);
  return 0;
}
