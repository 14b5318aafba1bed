// Request targets and bodies come from any client: routing must answer, never crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/api_router.hpp"
#include "sections/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static sextant::fixed_clock clock({});
  static sextant::daemon_state state(sextant::all_sections(), clock);
  sextant::api_router router(state);
  std::string input(reinterpret_cast<const char*>(data), size);
  // The first line is the target, the rest a body for PUT.
  auto newline = input.find('\n');
  std::string target = input.substr(0, newline);
  std::string body = newline == std::string::npos ? std::string() : input.substr(newline + 1);
  (void)router.handle({"GET", target, "\"x\", W/\"y\"", ""});
  (void)router.handle({"PUT", target, "", body});
  (void)router.handle({"PUT", "/api/v1/settings/problems", "", body});
  return 0;
}
