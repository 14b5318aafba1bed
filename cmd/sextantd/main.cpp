// sextantd: reads GPU and AI-ML operators' objects from the Kubernetes API (or a snapshot
// directory) and explains their state over a read-only HTTP API. See README.md.
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>
#include <boost/asio/io_context.hpp>

#include "app/app.hpp"
#include "app/logging.hpp"
#include "config/daemon_config.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  sextant::parsed_command_line command_line;
  try {
    command_line = sextant::parse_command_line(args);
  } catch (const std::exception& error) {  // config_error, or anything reading the file threw
    std::cerr << "sextantd: " << error.what() << "\n";
    return 2;
  }
  if (command_line.show_help) {
    std::cout << sextant::usage_text();
    return 0;
  }
  if (command_line.show_version) {
    std::cout << "sextantd " << SEXTANT_VERSION << "\n";
    return 0;
  }
  sextant::setup_logging(command_line.config.log_format, command_line.config.log_level);
  try {
    boost::asio::io_context io(1);
    sextant::app daemon(io, command_line.config);
    daemon.start();
    int code = daemon.run();
    spdlog::info("stopped");
    return code;
  } catch (const std::exception& error) {
    spdlog::critical("{}", error.what());
    return 1;
  }
}
