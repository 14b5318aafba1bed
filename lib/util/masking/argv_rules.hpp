#pragma once
// Section 2 of README.md: which arguments of an argv are secrets. An argv is the words of a
// command line (shell_words.hpp) or a YAML sequence of strings; the rules read words only, so
// both are judged alike.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace sextant::masking {

struct argv_word {
  std::string_view value;
  bool starts_command = false;  // a new command begins here (after ;, &&, |, a newline)
};

// Hide `words[word].value` from byte `from` to its end (from 0: the whole word).
struct argv_hide {
  std::size_t word = 0;
  std::size_t from = 0;
};

// Every secret argument: values of secret-looking flags (`--token V`, `--api-keys=A,B`),
// `NAME=value` inside a word, and the positional secrets of well-known tools (`wandb login V`,
// `aws configure set aws_secret_access_key V`, `docker login -p V`, `curl -u user:pw`). In
// `free_text` (a message quoting a command) a tool's positional secret is its next word only.
// In the order of the words; linear.
std::vector<argv_hide> secret_arguments(const std::vector<argv_word>& words, bool free_text);

// Where the value of a secret-looking `NAME=value` (or `name:value` at the word's start) inside
// one word begins; nullopt when the word holds none.
std::optional<std::size_t> secret_value_in_word(std::string_view word);

}  // namespace sextant::masking
