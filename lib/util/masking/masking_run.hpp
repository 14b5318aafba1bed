#pragma once
// What one call of the maskers shares across its nested readings (a JSON string inside a YAML
// value inside a command line): the work it may still do, and why it gave up. Internal to
// util/masking; the public entry points are in secrets.hpp.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace sextant::masking {

// Texts inside texts are read this deep, no deeper (section 6 of README.md).
inline constexpr std::size_t max_nested_texts = 4;

struct masking_run {
  // Work units: a YAML node visited, a byte of text read. A run may do a small multiple of its
  // input's size: aliases that fan out exhaust it instead of the event loop.
  explicit masking_run(std::size_t input_size) : budget(16 * input_size + 65536) {}

  bool spend(std::size_t units) {
    if (units > budget) {
      budget = 0;
      return fail(
          "its anchors and aliases repeat more than the daemon masks (the expanded text would be many times the size "
          "written)");
    }
    budget -= units;
    return true;
  }
  // Records the first reason a text cannot be read safely; returns false.
  bool fail(std::string why) {
    if (why_not.empty()) {
      why_not = std::move(why);
    }
    return false;
  }

  std::size_t budget;
  std::string why_not;
  bool uris_stripped = false;
};

// How a text that cannot be read whole is treated: a command line shown as a whole is not shown
// (strict); free text, and a string inside a YAML value, hide from the doubt to the end (lenient).
enum class reading { strict, lenient };

// A command line or free text with every secret position hidden (sections 2, 3, 5, 6); nullopt
// when `how` is strict and it cannot be read (run.why_not says why).
std::optional<std::string> mask_text(std::string_view text, reading how, std::size_t nesting, masking_run& run);

enum class yaml_outcome { masked, not_yaml, unsafe };
struct yaml_masked {
  yaml_outcome outcome = yaml_outcome::unsafe;
  std::string text;
};
// YAML (or JSON) with every secret position hidden (section 4). not_yaml: it does not parse;
// unsafe: it parses but cannot be masked safely (run.why_not says why).
yaml_masked mask_yaml_text(std::string_view yaml, std::size_t nesting, masking_run& run);

// A string found inside another text, `nesting` levels down: YAML or JSON when it starts with {
// or [ and parses as such, else text.
std::optional<std::string> mask_nested_value(std::string_view value, reading how, std::size_t nesting,
                                             masking_run& run);

// The output bound (README.md, "Bounds"): whether `output` may stand for `input`.
inline bool within_output_bound(std::string_view input, std::string_view output) {
  return output.size() <= 8 * input.size() + 4096;
}

}  // namespace sextant::masking
