#include "sections/common/words.hpp"

namespace sextant {
namespace {

std::string_view without_trailing_spaces(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

bool closes(char c) {
  return c == ')' || c == ']' || c == '"' || c == '\'';
}

}  // namespace

bool ends_sentence(std::string_view text) {
  text = without_trailing_spaces(text);
  while (!text.empty() && closes(text.back())) {
    text.remove_suffix(1);
  }
  return !text.empty() && (text.back() == '.' || text.back() == '!' || text.back() == '?');
}

std::string as_sentence(std::string_view text) {
  text = without_trailing_spaces(text);
  if (text.empty()) {
    return {};
  }
  std::string out(text);
  if (!ends_sentence(out)) {
    out += '.';
  }
  return out;
}

std::string capitalized_sentence(std::string_view phrase) {
  std::string out = as_sentence(phrase);
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') {
    out[0] = static_cast<char>(out[0] - 'a' + 'A');
  }
  return out;
}

void add_sentence(std::string& text, std::string_view sentence) {
  text = as_sentence(text);
  if (!text.empty() && !sentence.empty()) {
    text += ' ';
  }
  text += sentence;
}

std::string problem_message(std::string_view head, const object_state& state) {
  std::string out(head);
  if (!state.reason.empty()) {
    out += " (" + state.reason + ")";
  }
  std::string message = as_sentence(state.message);
  return message.empty() ? out + "." : out + ": " + message;
}

}  // namespace sextant
