#pragma once
// Sets up spdlog: human lines on a terminal, JSON lines (one object per line, for log
// collectors) when stderr is not a terminal or when asked.
#include <string>

namespace sextant {

// `format`: auto, text or json; `level`: trace, debug, info, warn, error.
void setup_logging(const std::string& format, const std::string& level);

}  // namespace sextant
