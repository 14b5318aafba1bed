#pragma once
// Masking of secret-looking values in text the daemon shows: a Ray Service's Serve config (YAML),
// a Ray Job's entrypoint (a command line), and operator messages. URL credentials are removed by
// the URI part of this library (uris.hpp). A text that cannot be read safely is not shown.
#include <optional>
#include <string>
#include <string_view>

namespace sextant::masking {

// What replaces a hidden value.
inline constexpr std::string_view hidden = "<hidden>";
// What is shown instead of a text that cannot be read safely.
inline constexpr std::string_view see_yaml = "see YAML";

// A key whose value is a secret: token, key, auth, secret, password, credential, API key,
// access key, in any case and spelling (apiKey, API_KEY, x-auth-token). Not max_tokens or
// tokenizer: counts and tools named after tokens are not secrets.
bool secret_looking_key(std::string_view key);

// A YAML document with every value under `env_vars` and under a secret-looking key replaced by
// <hidden>, URL credentials removed, and secret-looking parts of free-text values masked as in a
// command line. Nullopt when it cannot be read safely (not YAML, too deep, complex keys).
std::optional<std::string> mask_yaml(std::string_view yaml);

// A command line with the values of secret-looking `--flag=value`, `--flag value`,
// `NAME=value`, `"key": value` parts replaced by <hidden> (quotes, spaces and several lines
// allowed), and URL credentials removed. Nullopt when it cannot be read safely (a quote not
// closed).
std::optional<std::string> mask_command_line(std::string_view text);

// Text written by an operator (it may quote a job's last log lines): URL credentials removed.
std::string operator_text(std::string_view text);

// The masked text, or `see YAML` when it cannot be read safely.
std::string shown_or_see_yaml(const std::optional<std::string>& masked);

}  // namespace sextant::masking
