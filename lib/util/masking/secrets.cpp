#include "util/masking/secrets.hpp"

#include <simdjson.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "snapshot/yaml_documents.hpp"
#include "util/masking/uris.hpp"

namespace sextant::masking {
namespace {

constexpr std::size_t max_yaml_depth = 64;
constexpr std::size_t max_nested_text = 4;

bool is_alnum(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0;
}
char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// A key's words, lower case: split on anything not a letter or digit and where a lower-case
// letter or digit meets an upper-case one (apiKey, X-Auth-Token, AWS_SECRET_ACCESS_KEY).
std::vector<std::string> words_of(std::string_view key) {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    if (!is_alnum(c)) {
      if (!word.empty()) {
        words.push_back(std::move(word));
        word.clear();
      }
      continue;
    }
    bool upper = std::isupper(static_cast<unsigned char>(c)) != 0;
    if (upper && !word.empty() && i > 0 && std::islower(static_cast<unsigned char>(key[i - 1])) != 0) {
      words.push_back(std::move(word));
      word.clear();
    }
    word.push_back(lower(c));
  }
  if (!word.empty()) {
    words.push_back(std::move(word));
  }
  return words;
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

bool secret_word(const std::string& word) {
  for (std::string_view part : {"secret", "password", "passwd", "credential", "apikey", "accesskey", "privatekey"}) {
    if (word.find(part) != std::string::npos) {
      return true;
    }
  }
  if (word == "key" || word == "keys" || word == "pwd") {
    return true;
  }
  // authtoken, hftoken, bearertoken; not tokenizer, not tokens (a count).
  if (ends_with(word, "token") || ends_with(word, "key")) {
    return word != "monkey" && word != "turkey" && word != "hockey";
  }
  return word == "auth" || word.starts_with("authori") || word.starts_with("authent") || word == "authn" ||
         word == "authz";
}

// A value starting with one of these words is followed by the secret itself ("Bearer xyz").
bool scheme_word(std::string_view value) {
  std::string low;
  for (char c : value) {
    low.push_back(lower(c));
  }
  return low == "bearer" || low == "basic" || low == "token" || low == "digest";
}

// Input nested deeper than this is not read: the parser recurses.
bool too_deep(std::string_view text) {
  std::size_t depth = 0;
  std::size_t most = 0;
  std::size_t spaces = 0;
  bool line_start = true;
  for (char c : text) {
    if (c == '[' || c == '{') {
      most = std::max(most, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    if (c == '\n') {
      line_start = true;
      spaces = 0;
    } else if (line_start && (c == ' ' || c == '-')) {
      most = std::max(most, ++spaces / 2);
    } else {
      line_start = false;
    }
  }
  return most > max_yaml_depth;
}

void hide_all(YAML::Node node, std::size_t depth);

void hide_all(YAML::Node node, std::size_t depth) {
  if (depth > max_yaml_depth) {
    node = std::string(hidden);
    return;
  }
  if (node.IsMap()) {
    for (auto entry : node) {
      hide_all(entry.second, depth + 1);
    }
  } else if (node.IsSequence()) {
    for (auto item : node) {
      hide_all(item, depth + 1);
    }
  } else {
    node = std::string(hidden);
  }
}

std::optional<std::string> mask_text_value(std::string_view text, std::size_t nesting);

// Every value of the tree, masked in place (aliases share their node, so an alias of a hidden
// value is hidden too). False when a part cannot be read safely.
bool mask_node(YAML::Node node, std::size_t depth, std::size_t nesting) {
  if (depth > max_yaml_depth) {
    return false;
  }
  if (node.IsMap()) {
    for (auto entry : node) {
      if (!entry.first.IsScalar()) {
        return false;
      }
      const std::string key = entry.first.Scalar();
      if (key == "env_vars" || secret_looking_key(key)) {
        hide_all(entry.second, depth + 1);
      } else if (!mask_node(entry.second, depth + 1, nesting)) {
        return false;
      }
    }
    return true;
  }
  if (node.IsSequence()) {
    for (auto item : node) {
      if (!mask_node(item, depth + 1, nesting)) {
        return false;
      }
    }
    return true;
  }
  if (node.IsScalar()) {
    const std::string value = node.Scalar();
    if (value == hidden) {
      return true;
    }
    std::optional<std::string> masked = mask_text_value(value, nesting);
    if (!masked) {
      return false;
    }
    if (*masked != value) {
      node = *masked;
    }
  }
  return true;
}

std::optional<std::string> emit(const YAML::Node& node, bool flow) {
  YAML::Emitter out;
  if (flow) {
    out << YAML::Flow;
  }
  out << node;
  if (!out.good()) {
    return std::nullopt;
  }
  return std::string(out.c_str(), out.size());
}

std::optional<std::string> mask_yaml_nested(std::string_view yaml, std::size_t nesting, bool flow) {
  if (nesting > max_nested_text || too_deep(yaml)) {
    return std::nullopt;
  }
  // YAML is UTF-8 here (it comes from JSON strings). yaml-cpp reads invalid bytes leniently and
  // its emitter writes them back as other text (an overlong "t" becomes "t"), so a key judged as
  // read could be shown as a secret-looking one: such text is not shown at all.
  if (!simdjson::validate_utf8(yaml.data(), yaml.size())) {
    return std::nullopt;
  }
  try {
    // Document by document with YAML::Load: yaml-cpp 0.7's LoadAll loops forever on some
    // malformed streams (a leading ","; found by fuzz_masking, jbeder/yaml-cpp#1040).
    std::vector<YAML::Node> documents;
    for (const yaml_document_text& document : split_yaml_documents(yaml)) {
      documents.push_back(YAML::Load(std::string(document.text)));
    }
    std::string out;
    for (std::size_t i = 0; i < documents.size(); ++i) {
      if (!mask_node(documents[i], 0, nesting)) {
        return std::nullopt;
      }
      std::optional<std::string> text = emit(documents[i], flow);
      if (!text) {
        return std::nullopt;
      }
      if (i > 0) {
        out += "\n---\n";
      }
      out += *text;
    }
    return out;
  } catch (...) {
    return std::nullopt;
  }
}

std::string trimmed(std::string_view text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])) != 0) {
    ++begin;
  }
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])) != 0) {
    --end;
  }
  return std::string(text.substr(begin, end - begin));
}

// A free-text value inside YAML: JSON or YAML flow text is masked as YAML; other text as a
// command line.
std::optional<std::string> mask_text_value(std::string_view text, std::size_t nesting) {
  std::string inner = trimmed(text);
  if (!inner.empty() && (inner.front() == '{' || inner.front() == '[')) {
    return mask_yaml_nested(inner, nesting + 1, true);
  }
  return mask_command_line(text);
}

bool space(char c) {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}
bool quote(char c) {
  return c == '"' || c == '\'';
}
bool key_char(char c) {
  return is_alnum(c) || c == '_' || c == '-' || c == '.';
}

// The end of a value starting at `at`: a quoted string to its closing quote (nullopt when it is
// not closed), else up to a space or a separator.
std::optional<std::size_t> value_end(std::string_view text, std::size_t at) {
  if (at < text.size() && quote(text[at])) {
    char q = text[at];
    for (std::size_t i = at + 1; i < text.size(); ++i) {
      if (text[i] == '\\' && q == '"') {
        ++i;
      } else if (text[i] == q) {
        return i + 1;
      }
    }
    return std::nullopt;
  }
  std::size_t i = at;
  while (i < text.size() && !space(text[i]) && text[i] != ',' && text[i] != '}' && text[i] != ']' && text[i] != ';' &&
         text[i] != '&' && text[i] != '|' && !quote(text[i])) {
    if (text[i] == '\\') {
      ++i;
    }
    ++i;
  }
  return std::min(i, text.size());
}

struct span {
  std::size_t begin;
  std::size_t end;
};

// Adds the value at `at` (and the secret after "Bearer") to `spans`. False when unreadable.
bool hide_value_at(std::string_view text, std::size_t at, std::vector<span>& spans) {
  std::optional<std::size_t> end = value_end(text, at);
  if (!end) {
    return false;
  }
  if (*end == at) {
    return true;
  }
  std::size_t stop = *end;
  if (scheme_word(text.substr(at, stop - at))) {
    std::size_t next = stop;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) {
      ++next;
    }
    if (std::optional<std::size_t> after = value_end(text, next); after && *after > next) {
      stop = *after;
    }
  }
  spans.push_back({at, stop});
  return true;
}

// Quotes balance outside of escapes: else the text cannot be read safely.
bool quotes_closed(std::string_view text) {
  char open = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (open == 0) {
      if (c == '\\') {
        ++i;
      } else if (quote(c)) {
        // An apostrophe inside a word ("don't") is not a quote.
        bool inside_word = c == '\'' && i > 0 && is_alnum(text[i - 1]) && i + 1 < text.size() && is_alnum(text[i + 1]);
        if (!inside_word) {
          open = c;
        }
      }
    } else if (c == '\\' && open == '"') {
      ++i;
    } else if (c == open) {
      open = 0;
    }
  }
  return open == 0;
}

std::optional<std::string> mask_command_line_nested(std::string_view input, std::size_t nesting) {
  if (nesting > max_nested_text || !quotes_closed(input)) {
    return std::nullopt;
  }
  // URL credentials first: a user name before ':' would else read as a key ("AKIA...KEY:").
  const std::string stripped_text = strip_uris_in_text(input).text;
  const std::string_view text = stripped_text;
  std::vector<span> spans;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!key_char(text[i]) || (i > 0 && key_char(text[i - 1]))) {
      ++i;
      continue;
    }
    // A key: a run of key characters, maybe behind dashes (--flag) and in quotes ("key").
    std::size_t begin = i;
    while (i < text.size() && key_char(text[i])) {
      ++i;
    }
    std::string_view key = text.substr(begin, i - begin);
    bool flag = key.starts_with('-');
    std::size_t j = i;
    if (j < text.size() && quote(text[j]) && begin > 0 && text[begin - 1] == text[j]) {
      ++j;  // "key": value
    }
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) {
      ++j;
    }
    if (!secret_looking_key(key)) {
      continue;
    }
    bool separator =
        j < text.size() && (text[j] == '=' || text[j] == ':') && !(text[j] == ':' && text.substr(j).starts_with("://"));
    if (separator) {
      std::size_t at = j + 1;
      while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) {
        ++at;
      }
      if (!hide_value_at(text, at, spans)) {
        return std::nullopt;
      }
      i = spans.empty() ? at : std::max(at, spans.back().end);
      continue;
    }
    if (flag) {
      // --flag value: the next word, over spaces and line continuations, unless it is a flag.
      std::size_t at = i;
      while (at < text.size() &&
             (space(text[at]) || (text[at] == '\\' && at + 1 < text.size() && text[at + 1] == '\n'))) {
        ++at;
      }
      if (at < text.size() && text[at] != '-' && text[at] != '\\' && text[at] != '|' && text[at] != ';' &&
          text[at] != '&') {
        if (!hide_value_at(text, at, spans)) {
          return std::nullopt;
        }
        // hide_value_at adds no span for an empty value (a flag at a closing bracket).
        i = spans.empty() ? at : std::max(at, spans.back().end);
      }
    }
  }
  std::string out;
  std::size_t from = 0;
  for (const span& part : spans) {
    if (part.begin < from) {
      continue;
    }
    out.append(text.substr(from, part.begin - from));
    // Inside a quoted value, keep the quotes: --token="<hidden>".
    std::string_view value = text.substr(part.begin, part.end - part.begin);
    if (value.size() >= 2 && quote(value.front()) && value.back() == value.front()) {
      out.push_back(value.front());
      out.append(hidden);
      out.push_back(value.front());
    } else {
      out.append(hidden);
    }
    from = part.end;
  }
  out.append(text.substr(from));
  // Quoted parts are command lines of their own (bash -c "python run.py --token x"): the scan
  // above reads through quotes.
  return out;
}

}  // namespace

bool secret_looking_key(std::string_view key) {
  std::vector<std::string> words = words_of(key);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word == "token" && i > 0 && (words[i - 1] == "max" || words[i - 1] == "min" || words[i - 1] == "num")) {
      continue;
    }
    if (secret_word(word)) {
      return true;
    }
    if (i + 1 < words.size() && (word == "api" || word == "access" || word == "private") && words[i + 1] == "key") {
      return true;
    }
  }
  return false;
}

std::optional<std::string> mask_yaml(std::string_view yaml) {
  return mask_yaml_nested(yaml, 0, false);
}

std::optional<std::string> mask_command_line(std::string_view text) {
  return mask_command_line_nested(text, 0);
}

std::string operator_text(std::string_view text) {
  return strip_uris_in_text(text).text;
}

std::string shown_or_see_yaml(const std::optional<std::string>& masked) {
  return masked ? *masked : std::string(see_yaml);
}

}  // namespace sextant::masking
