#include "util/masking/secrets.hpp"

#include "util/masking/masking_run.hpp"
#include "util/masking/uris.hpp"

namespace sextant::masking {
namespace {

masked_text finished(std::optional<std::string> text, const masking_run& run) {
  masked_text out;
  out.text = std::move(text);
  out.uris_stripped = run.uris_stripped;
  if (!out.text) {
    out.why_not = run.why_not.empty() ? "it cannot be read safely" : run.why_not;
  }
  return out;
}

}  // namespace

masked_text mask_yaml(std::string_view yaml) {
  masking_run run(yaml.size());
  yaml_masked masked = mask_yaml_text(yaml, 0, run);
  if (masked.outcome != yaml_outcome::masked) {
    return finished(std::nullopt, run);
  }
  return finished(std::move(masked.text), run);
}

masked_text mask_command_line(std::string_view text) {
  masking_run run(text.size());
  return finished(mask_text(text, reading::strict, 0, run), run);
}

std::string operator_text(std::string_view text) {
  masking_run run(text.size());
  std::optional<std::string> masked = mask_text(text, reading::lenient, 0, run);
  if (!masked) {
    return std::string(hidden);  // past the output bound: nothing of it is shown
  }
  if (run.uris_stripped) {
    *masked += " (" + std::string(removed_note) + ")";
  }
  return std::move(*masked);
}

std::string shown_or_see_yaml(const masked_text& masked) {
  return masked.text ? *masked.text : std::string(see_yaml);
}

std::string masking_note(std::string_view what, const masked_text& masked) {
  if (!masked.text) {
    return std::string(what) + " is not shown: " + masked.why_not + ". The YAML section shows it as stored.";
  }
  if (masked.uris_stripped) {
    return std::string(what) + " shows its URIs with their " + std::string(removed_note) + ".";
  }
  return {};
}

}  // namespace sextant::masking
