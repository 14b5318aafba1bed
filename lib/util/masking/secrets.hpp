#pragma once
// The masking module's entry points: every text a section shows goes through one of them (the
// model of what is secret, and where each reader applies it: README.md in this folder).
//
//   mask_yaml          a Ray Service's Serve config (YAML or JSON)
//   mask_command_line  a Ray Job's entrypoint
//   operator_text      any free text: condition and status messages, notes, problem messages
//   mask_view_strings  every string of a rendered view, as a last net (view_strings.hpp)
//   strip_uri          one URI field (uris.hpp)
#include <optional>
#include <string>
#include <string_view>

#include "util/masking/secret_names.hpp"

namespace sextant::masking {

// What replaces a hidden value.
inline constexpr std::string_view hidden = "<hidden>";
// What is shown instead of a text that cannot be read safely.
inline constexpr std::string_view see_yaml = "see YAML";

// What a masker made of a text.
struct masked_text {
  std::optional<std::string> text;  // nullopt: not shown, it cannot be masked safely
  std::string why_not;              // then why, in words for a note ("a quote in it is not closed")
  bool uris_stripped = false;       // URL credentials, a query or a fragment were removed
};

// A YAML (or JSON) document with every secret position hidden: values under secret-looking keys
// and environments, env lists' values, argv sequences' secret arguments, secrets inside string
// values (command lines, JSON, URLs). Not shown when it is not YAML, nested too deep, has complex
// keys, or has aliases that fan out past what can be masked in time linear in its size.
masked_text mask_yaml(std::string_view yaml);

// A command line with every secret position hidden (flags, NAME=value, tools' positional
// secrets, nested `bash -c "…"` and `python -c '…'` texts, URL credentials). Not shown when it
// cannot be read whole: a quote not closed, texts nested too deep.
masked_text mask_command_line(std::string_view text);

// Free text written by an operator or a program (it may quote a job's last log lines or a
// command): the same secret positions hidden, never refused (a quote not closed hides from the
// doubt to the end), and " (credentials and query hidden)" at its end when a URI lost something.
std::string operator_text(std::string_view text);

// The masked text, or `see YAML` when it cannot be read safely.
std::string shown_or_see_yaml(const masked_text& masked);

// The note a view shows beside `what` (a Serve config, an entrypoint) once masked: why it is not
// shown, or that URIs in it lost their credentials; empty when there is nothing to say.
std::string masking_note(std::string_view what, const masked_text& masked);

}  // namespace sextant::masking
