// A pod's PodScheduled message is outside input (a scheduler, or whoever can write pod status):
// recognising its DRA reasons must take time linear in it and never crash, and every reason
// read must point at words of the message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sections/dra/scheduler_reasons.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string message(reinterpret_cast<const char*>(data), size);
  sextant::dra::scheduler_reading reading = sextant::dra::recognise_scheduler_message(message);
  for (const sextant::dra::dra_reason& reason : reading.reasons) {
    if (reason.id.empty() || reason.text.empty() || message.find(reason.fragment) == std::string::npos) {
      std::abort();
    }
    // As every answer is written: a driver's message may hold bytes that are not UTF-8 (Go's \x).
    (void)reason.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
