#include "util/masking/shell_words.hpp"

#include "util/masking/characters.hpp"

namespace sextant::masking {
namespace {

// Unquoted, these end a word and start a new command.
bool command_separator(char c) {
  return c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`' || c == '\n';
}

// Unquoted, these end a word (redirections).
bool word_separator(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '<' || c == '>';
}

// An apostrophe between two letters or digits ("don't") is a letter, not a quote: commands and
// messages are written by people.
bool apostrophe(std::string_view text, std::size_t i) {
  return text[i] == '\'' && i > 0 && ascii_alnum(text[i - 1]) && i + 1 < text.size() && ascii_alnum(text[i + 1]);
}

class word_reader {
 public:
  explicit word_reader(std::string_view text) : text_(text) { reading_.values.reserve(text.size()); }

  shell_reading read() {
    bool command_start = true;
    std::size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (c == '\\' && i + 1 < text_.size() && text_[i + 1] == '\n') {
        i += 2;  // a line continuation between words
        continue;
      }
      if (word_separator(c)) {
        ++i;
        continue;
      }
      if (command_separator(c)) {
        command_start = true;
        ++i;
        continue;
      }
      i = read_word(i, command_start);
      command_start = false;
    }
    return std::move(reading_);
  }

 private:
  // Adds the byte at `at` of the text to the word being read.
  void add(shell_word& word, std::size_t value_begin, char c, std::size_t at) {
    const std::size_t k = reading_.values.size() - value_begin;
    if (word.direct && at != word.begin + k) {
      // The first byte out of place: from here on each byte's place is written down.
      word.direct = false;
      word.first_offset = reading_.offsets.size();
      for (std::size_t j = 0; j < k; ++j) {
        reading_.offsets.push_back(static_cast<std::uint32_t>(word.begin + j));
      }
    }
    if (!word.direct) {
      reading_.offsets.push_back(static_cast<std::uint32_t>(at));
    }
    reading_.values.push_back(c);
  }

  // Reads one word from `i`; returns where the text after it starts.
  std::size_t read_word(std::size_t i, bool command_start) {
    shell_word word;
    word.begin = i;
    word.starts_command = command_start;
    const std::size_t value_begin = reading_.values.size();
    std::size_t quoted_parts = 0;
    bool bare_parts = false;
    while (i < text_.size()) {
      const char c = text_[i];
      if (c == '\\') {
        if (i + 1 < text_.size() && text_[i + 1] == '\n') {
          i += 2;
          continue;
        }
        if (i + 1 < text_.size()) {
          add(word, value_begin, text_[i + 1], i + 1);
          bare_parts = true;
        }
        i += 2;
        continue;
      }
      if (word_separator(c) || command_separator(c)) {
        break;
      }
      if (quote_char(c) && !apostrophe(text_, i)) {
        word.quoted = true;
        ++quoted_parts;
        word.quote = c;
        i = read_quoted(word, value_begin, i);
        continue;
      }
      add(word, value_begin, c, i);
      bare_parts = true;
      ++i;
    }
    word.end = std::min(i, text_.size());
    if (quoted_parts != 1 || bare_parts) {
      word.quote = 0;
    }
    word.value_begin = value_begin;
    word.value_size = reading_.values.size() - value_begin;
    const std::size_t after = word.end;
    reading_.words.push_back(word);
    return after;
  }

  // Reads a quoted part opening at `i`; returns where the text after its closing quote starts.
  std::size_t read_quoted(shell_word& word, std::size_t value_begin, std::size_t i) {
    const char q = text_[i];
    ++i;
    while (i < text_.size()) {
      const char c = text_[i];
      if (c == q) {
        return i + 1;
      }
      if (q == '"' && c == '\\' && i + 1 < text_.size()) {
        const char next = text_[i + 1];
        if (next == '\n') {
          i += 2;
          continue;
        }
        if (next == '"' || next == '\\' || next == '$' || next == '`') {
          add(word, value_begin, next, i + 1);
          i += 2;
          continue;
        }
      }
      add(word, value_begin, c, i);
      ++i;
    }
    reading_.unclosed = true;
    return i;
  }

  std::string_view text_;
  shell_reading reading_;
};

}  // namespace

shell_reading read_shell_words(std::string_view text) {
  return word_reader(text).read();
}

std::string quoted_shell_word(std::string_view value, char quote) {
  std::string out;
  out.reserve(value.size() + 2);
  if (quote == '\'' && value.find('\'') == std::string_view::npos) {
    out.push_back('\'');
    out.append(value);
    out.push_back('\'');
    return out;
  }
  out.push_back('"');
  for (char c : value) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') {
      out.push_back('\\');
    }
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

}  // namespace sextant::masking
