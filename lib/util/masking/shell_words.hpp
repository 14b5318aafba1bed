#pragma once
// The words of a command line as a POSIX shell splits them (section 2 of README.md): quotes,
// backslash escapes and line continuations undone, each word kept with where it stands in the
// text so that a part of it can be hidden in place. Linear, with one buffer for all words; never
// fails: a quote that is not closed runs to the end of the text, and the reading says so.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sextant::masking {

struct shell_word {
  std::size_t begin = 0;  // where the word stands in the text, quotes included
  std::size_t end = 0;
  std::size_t value_begin = 0;  // its value (the shell's quoting undone) in shell_reading::values
  std::size_t value_size = 0;
  std::size_t first_offset = 0;  // where its bytes' places start in shell_reading::offsets
  bool direct = true;            // no quote or escape: byte k of `value` stands at begin + k
  char quote = 0;                // the quote when the whole word is one quoted string, else 0
  bool quoted = false;           // some part of it was quoted
  bool starts_command = false;   // first word of the text or after ; & | ( ) ` or a newline
};

struct shell_reading {
  std::vector<shell_word> words;
  bool unclosed = false;               // a quote was not closed: it ran to the end of the text
  std::string values;                  // every word's value, one after another
  std::vector<std::uint32_t> offsets;  // where each byte of a word that is not direct stands

  // The word with the shell's quoting undone.
  std::string_view value(const shell_word& word) const {
    return std::string_view(values).substr(word.value_begin, word.value_size);
  }
  // Where byte `k` of `word`'s value stands in the text.
  std::size_t place(const shell_word& word, std::size_t k) const {
    return word.direct ? word.begin + k : offsets[word.first_offset + k];
  }
};

shell_reading read_shell_words(std::string_view text);

// `value` written as one shell word that reads back as `value`, in `quote` (' or ") when given,
// else in double quotes.
std::string quoted_shell_word(std::string_view value, char quote);

}  // namespace sextant::masking
