// A --config file is read before anything else (issue 32, item 11): whatever it holds, reading
// it ends in settings or one config_error naming the file and line, never another exception or
// a crash, and an alias is never expanded (a list or mapping where a value belongs is refused).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "config/daemon_config.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  sextant::daemon_config config;
  try {
    sextant::apply_config_yaml(config, std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  } catch (const sextant::config_error& error) {
    if (std::string(error.what()).rfind("fuzz.yaml", 0) != 0) {
      std::abort();  // every refusal names the file first
    }
  }
  return 0;
}
