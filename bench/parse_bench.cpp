// The raw parse of list bodies, as references for the daemon's ingest: nlohmann/json building
// its DOM, and simdjson's DOM parser. Best of 3 per file, in milliseconds.
//
//   parse_bench FILE...      prints "file bytes nlohmann_ms simdjson_ms" per file, then totals
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include <simdjson.h>
#include <nlohmann/json.hpp>

namespace {

template <typename F>
double best_ms(F&& run) {
  double best = 1e18;
  for (int i = 0; i < 3; ++i) {
    auto start = std::chrono::steady_clock::now();
    run();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  double total_nlohmann = 0;
  double total_simdjson = 0;
  std::size_t total_bytes = 0;
  simdjson::dom::parser parser;
  for (int i = 1; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    double nlohmann_ms = best_ms([&] {
      nlohmann::json document = nlohmann::json::parse(text);
      if (document.is_null()) {
        std::abort();
      }
    });
    simdjson::padded_string padded(text);
    double simdjson_ms = best_ms([&] {
      simdjson::dom::element document = parser.parse(padded);
      if (document.is_null()) {
        std::abort();
      }
    });
    std::printf("%s %zu %.1f %.1f\n", argv[i], text.size(), nlohmann_ms, simdjson_ms);
    total_nlohmann += nlohmann_ms;
    total_simdjson += simdjson_ms;
    total_bytes += text.size();
  }
  std::printf("total %zu %.1f %.1f\n", total_bytes, total_nlohmann, total_simdjson);
  return 0;
}
