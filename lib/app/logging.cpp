#include "app/logging.hpp"

#include <unistd.h>

#include <chrono>
#include <memory>

#include <spdlog/formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "util/json.hpp"
#include "util/time.hpp"

namespace sextant {
namespace {

// {"time":"…","level":"info","message":"…"}: the message escaped as JSON, which spdlog's
// pattern language cannot do.
class json_line_formatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& message, spdlog::memory_buf_t& out) override {
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(message.time.time_since_epoch()).count() % 1000;
    std::string stamp = format_rfc3339(std::chrono::time_point_cast<std::chrono::system_clock::duration>(message.time));
    char fraction[8];
    std::snprintf(fraction, sizeof fraction, ".%03lldZ", static_cast<long long>(millis));
    stamp.replace(stamp.size() - 1, 1, fraction);
    json line = {{"time", stamp},
                 {"level", std::string(spdlog::level::to_string_view(message.level).data(),
                                       spdlog::level::to_string_view(message.level).size())},
                 {"message", std::string(message.payload.data(), message.payload.size())}};
    std::string text = line.dump(-1, ' ', false, json::error_handler_t::replace);
    text += '\n';
    out.append(text.data(), text.data() + text.size());
  }
  std::unique_ptr<spdlog::formatter> clone() const override { return std::make_unique<json_line_formatter>(); }
};

}  // namespace

void setup_logging(const std::string& format, const std::string& level) {
  auto logger = spdlog::stderr_color_mt("sextantd");
  bool json_lines = format == "json" || (format == "auto" && ::isatty(STDERR_FILENO) == 0);
  if (json_lines) {
    logger->set_formatter(std::make_unique<json_line_formatter>());
  } else {
    logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%-5l%$ %v");
  }
  logger->set_level(spdlog::level::from_str(level));
  spdlog::set_default_logger(logger);
}

}  // namespace sextant
