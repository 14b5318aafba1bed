#include "util/masking/secret_names.hpp"

#include <string>

#include "util/masking/characters.hpp"

namespace sextant::masking {
namespace {

bool has(std::string_view word, std::string_view part) {
  return word.find(part) != std::string_view::npos;
}

bool one_of(std::string_view word, std::initializer_list<std::string_view> words) {
  for (std::string_view candidate : words) {
    if (word == candidate) {
      return true;
    }
  }
  return false;
}

// One lower-case word of a name, digits glued to its end dropped (token2 -> token).
bool secret_word(std::string_view word) {
  while (!word.empty() && ascii_digit(word.back())) {
    word.remove_suffix(1);
  }
  if (word.empty()) {
    return false;
  }
  for (std::string_view part : {"secret", "password", "passwd", "passphrase", "credential", "signature"}) {
    if (has(word, part)) {
      return true;
    }
  }
  if (one_of(word, {"pass", "pwd", "creds", "cred", "auth", "authn", "authz", "bearer", "cookie", "cookies", "jwt",
                    "key", "keys"})) {
    return true;
  }
  if (word.starts_with("authori") || word.starts_with("authent") || word.ends_with("auth")) {
    return true;
  }
  if (word.ends_with("token")) {
    // maxtoken, numtoken written as one word are counts as max_token is.
    return !(word.starts_with("max") || word.starts_with("min") || word.starts_with("num"));
  }
  if (word.ends_with("key") || word.ends_with("keys")) {
    return !one_of(word, {"monkey", "turkey", "hockey", "donkey", "whiskey", "jockey", "monkeys", "turkeys", "donkeys",
                          "jockeys"});
  }
  return false;
}

// Calls `each(word)` for the lower-case words of a name: split at anything not a letter or a
// digit, and where a lower-case letter or a digit meets an upper-case one (apiKey, hfToken2).
template <typename F>
void for_each_word(std::string_view name, F&& each) {
  std::string word;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!ascii_alnum(c)) {
      if (!word.empty()) {
        each(std::string_view(word));
        word.clear();
      }
      continue;
    }
    if (ascii_upper(c) && !word.empty() && (ascii_lower(name[i - 1]) || ascii_digit(name[i - 1]))) {
      each(std::string_view(word));
      word.clear();
    }
    word.push_back(lowered(c));
  }
  if (!word.empty()) {
    each(std::string_view(word));
  }
}

bool counts_tokens(std::string_view previous) {
  return one_of(previous, {"max", "min", "num", "total", "count"});
}

// Whether the lower-cased `text` continues with `stem` at `at`.
bool stem_at(std::string_view text, std::size_t at, std::string_view stem) {
  if (at + stem.size() > text.size()) {
    return false;
  }
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (lowered(text[at + i]) != stem[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool may_hold_secrets(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    bool found = false;
    switch (lowered(text[i])) {
      case '@':
        return true;
      case ':':
        found = stem_at(text, i, "://");
        break;
      case 't':
        found = stem_at(text, i, "tok");
        break;
      case 'k':
        found = stem_at(text, i, "key");
        break;
      case 's':
        found = stem_at(text, i, "sec") || stem_at(text, i, "sig") || stem_at(text, i, "sql");
        break;
      case 'p':
        found = stem_at(text, i, "pass") || stem_at(text, i, "pwd");
        break;
      case 'a':
        found = stem_at(text, i, "auth");
        break;
      case 'c':
        found = stem_at(text, i, "cred") || stem_at(text, i, "cook") || stem_at(text, i, "curl");
        break;
      case 'b':
        found = stem_at(text, i, "bear");
        break;
      case 'j':
        found = stem_at(text, i, "jwt");
        break;
      case 'l':
        found = stem_at(text, i, "login");
        break;
      case 'r':
        found = stem_at(text, i, "redis");
        break;
      default:
        break;
    }
    if (found) {
      return true;
    }
  }
  return false;
}

bool secret_looking_key(std::string_view name) {
  if (!may_hold_secrets(name)) {
    return false;
  }
  bool secret = false;
  std::string previous;
  for_each_word(name, [&](std::string_view word) {
    if (secret) {
      return;
    }
    std::string_view bare = word;
    while (!bare.empty() && ascii_digit(bare.back())) {
      bare.remove_suffix(1);
    }
    if (!(bare == "token" && counts_tokens(previous)) && secret_word(word)) {
      secret = true;
    }
    previous = std::string(bare);
  });
  return secret;
}

bool shown_path_value(std::string_view name, std::string_view value) {
  std::string last;
  for_each_word(name, [&](std::string_view word) { last = std::string(word); });
  if (!one_of(last, {"file", "path", "dir", "directory", "mount", "filename", "location"})) {
    return false;
  }
  if (value.empty()) {
    return false;
  }
  for (char c : value) {
    if (blank(c) || quote_char(c)) {
      return false;
    }
  }
  return value.starts_with('/') || value.starts_with("./") || value.starts_with("../") || value.starts_with("~/");
}

bool environment_key(std::string_view key) {
  std::string joined;
  for (char c : key) {
    if (ascii_alnum(c)) {
      joined.push_back(lowered(c));
    }
  }
  return one_of(joined, {"envvars", "env", "envs", "environment", "environmentvariables", "envvariables"});
}

bool auth_scheme_word(std::string_view word) {
  for (std::string_view scheme : {"bearer", "basic", "token", "digest"}) {
    if (equals_lowered(word, scheme)) {
      return true;
    }
  }
  return false;
}

}  // namespace sextant::masking
