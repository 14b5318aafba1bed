// Feeds arbitrary bytes to every decoding entry point the live API path uses: objects, lists
// and watch lines, typed and untyped, through the real Workload profile and its transform.
// Decoding must never crash or throw, and whatever it packs must read back whole: copied out to
// nlohmann and packed again, it is the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ingest/json_decoder.hpp"
#include "sections/kueue/kueue_section.hpp"

namespace {

void check_reads_back(const sextant::packed_body& body) {
  const sextant::json copy = body.root();
  if (sextant::json(sextant::pack(copy).root()) != copy) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const sextant::kind_key workload{"kueue.x-k8s.io", "Workload"};
  static const sextant::ingest_profiles profiles = [] {
    sextant::ingest_profiles p;
    p.set(workload, sextant::kueue::workload_profile());
    return p;
  }();
  sextant::json_decoder decoder(profiles);
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& decoded : {decoder.decode_object(text), decoder.decode_object(text, &workload)}) {
    if (decoded.ok()) {
      check_reads_back(*decoded.value);
    }
  }
  (void)decoder.decode_untyped(text);
  for (const auto& list :
       {decoder.decode_list(text), decoder.decode_list(text, "kueue.x-k8s.io/v1beta2", "Workload")}) {
    if (list.ok()) {
      for (const sextant::packed_body& item : list.value->items) {
        check_reads_back(item);
      }
    }
  }
  if (auto event = decoder.decode_watch_event(text, workload); event.ok()) {
    check_reads_back(event.value->object);
  }
  return 0;
}
