// Over 400 lines because the name/value reading below and its assembly with the argv reading decide
// together what is hidden; a review of the masking reads it in one place.
// Sections 3 and 6 of README.md, and the assembly of every reading of a text: URIs stripped,
// then the argv reading (argv_rules) and the name/value reading below applied together; whatever
// either hides is hidden. Both readings are linear, and nested texts are read at most
// max_nested_texts deep, so a text is read a bounded number of times.
#include <algorithm>
#include <vector>

#include "util/masking/argv_rules.hpp"
#include "util/masking/characters.hpp"
#include "util/masking/masking_run.hpp"
#include "util/masking/secret_names.hpp"
#include "util/masking/secrets.hpp"
#include "util/masking/shell_words.hpp"
#include "util/masking/uris.hpp"

namespace sextant::masking {
namespace {

constexpr std::size_t npos = std::string_view::npos;

// One change to the text: [begin, end) becomes `replacement` (<hidden>, or a quoted word read
// again as a text of its own when `nested`).
struct text_edit {
  std::size_t begin = 0;
  std::size_t end = 0;
  bool nested = false;
  std::string replacement;
};

text_edit hidden_span(std::size_t begin, std::size_t end) {
  return {begin, end, false, std::string(hidden)};
}

bool space_or_tab(char c) {
  return c == ' ' || c == '\t';
}

// A value's place in the text: its content [begin, end), and where reading goes on after it
// (past a closing quote).
struct value_span {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t next = 0;
  bool quoted = false;
};

// The name/value reading of section 3. Keeps the quote the text is inside of, so that a bare
// value ends where that quote closes (`"--token=abc" next`) and otherwise at a blank only: a
// password holds commas, brackets and semicolons.
class name_value_reader {
 public:
  name_value_reader(std::string_view text, reading how) : text_(text), how_(how) {}

  // False when a strict reading meets a quote that is not closed.
  bool read(std::vector<text_edit>& edits) {
    std::size_t i = 0;
    while (i < text_.size()) {
      const char c = text_[i];
      if (!name_char(c) || (i > 0 && name_char(text_[i - 1]))) {
        track_quote(i);
        ++i;
        continue;
      }
      std::size_t begin = i;
      while (i < text_.size() && name_char(text_[i])) {
        ++i;
      }
      std::optional<std::size_t> next = judge_name(begin, i, edits);
      if (!next) {
        return false;
      }
      i = std::max(i, *next);
    }
    return true;
  }

 private:
  void track_quote(std::size_t i) {
    const char c = text_[i];
    if (!quote_char(c) || (i > 0 && text_[i - 1] == '\\') ||
        (c == '\'' && i > 0 && ascii_alnum(text_[i - 1]) && i + 1 < text_.size() && ascii_alnum(text_[i + 1]))) {
      return;
    }
    enclosing_ = enclosing_ == c ? 0 : (enclosing_ == 0 ? c : enclosing_);
  }

  std::size_t skip_spaces(std::size_t at) const {
    while (at < text_.size() && space_or_tab(text_[at])) {
      ++at;
    }
    return at;
  }

  // A name at [begin, end): when a secret position follows, its value is hidden. Returns where
  // reading goes on, or nullopt when a strict reading cannot go on.
  std::optional<std::size_t> judge_name(std::size_t begin, std::size_t end, std::vector<text_edit>& edits) {
    const std::string_view name = text_.substr(begin, end - begin);
    const bool quoted_name = begin > 0 && quote_char(text_[begin - 1]);
    std::size_t j = end;
    std::size_t name_close = npos;  // the quote closing a quoted name, passed over below
    if (j + 1 < text_.size() && text_[j] == '\\' && quote_char(text_[j + 1])) {
      j += 2;  // \"key\": an escaped quote closes the name
    } else if (j < text_.size() && quote_char(text_[j])) {
      name_close = j++;
    }
    if (j < text_.size() && text_[j] == ']') {
      ++j;  // os.environ['KEY']
    }
    const std::size_t after_spaces = skip_spaces(j);
    if (after_spaces >= text_.size()) {
      return end;
    }
    const char c = text_[after_spaces];
    std::size_t value_at = npos;
    bool call = false;
    if (c == '=') {
      if (after_spaces + 1 < text_.size() && text_[after_spaces + 1] == '=') {
        return end;  // ==
      }
      value_at = after_spaces + 1;
    } else if (c == ':') {
      if (text_.substr(after_spaces).starts_with("://")) {
        return end;
      }
      value_at = after_spaces + (after_spaces + 1 < text_.size() && text_[after_spaces + 1] == '=' ? 2 : 1);
    } else if (c == ',' && ((quoted_name && opens_call(begin - 1)) || name.starts_with('-'))) {
      value_at = after_spaces + 1;  // setdefault("HF_TOKEN", "v"), ["--token", "v"]
    } else if (c == '(' && after_spaces == end) {
      call = true;  // login("v")
      value_at = after_spaces + 1;
    } else if (after_spaces > j && equals_lowered(name, "bearer")) {
      value_at = after_spaces;  // Bearer xyz, anywhere
    } else {
      return end;
    }
    if (call ? !(is_login(name) || secret_looking_key(name)) : !secret_looking_key(name)) {
      return end;
    }
    if (name_close != npos) {
      track_quote(name_close);
    }
    if (c == ':' && block_value_follows(value_at)) {
      enclosing_ = 0;
      return hide_block(begin, value_at, edits);
    }
    value_at = skip_spaces(value_at);
    std::optional<value_span> value = value_from(value_at);
    if (!value) {
      return std::nullopt;
    }
    if (value->begin == value->end || (call && !value->quoted)) {
      return std::max(end, value->next);
    }
    const std::string_view written = text_.substr(value->begin, value->end - value->begin);
    if (shown_path_value(name, written)) {
      return value->next;
    }
    std::size_t stop = value->end;
    std::size_t next = value->next;
    if (!value->quoted && auth_scheme_word(written)) {
      // "Bearer xyz": the secret is the word after the scheme.
      std::optional<value_span> secret = value_from(skip_spaces(value->next));
      if (!secret) {
        return std::nullopt;
      }
      if (secret->end > secret->begin) {
        stop = secret->end;
        next = secret->next;
      }
    }
    edits.push_back(hidden_span(value->begin, stop));
    return next;
  }

  static bool is_login(std::string_view name) {
    if (auto dot = name.rfind('.'); dot != npos) {
      name.remove_prefix(dot + 1);
    }
    return equals_lowered(name, "login");
  }

  // Whether the quote at `quote_at` follows a call's open parenthesis: f("NAME", value).
  bool opens_call(std::size_t quote_at) const {
    std::size_t k = quote_at;
    while (k > 0 && space_or_tab(text_[k - 1])) {
      --k;
    }
    return k > 0 && text_[k - 1] == '(';
  }

  // `name:` with nothing after it on its line, and a more indented line below: a YAML block.
  bool block_value_follows(std::size_t at) const {
    std::size_t k = skip_spaces(at);
    if (k < text_.size() && text_[k] == '\r') {
      ++k;
    }
    return k < text_.size() && text_[k] == '\n';
  }

  std::size_t indentation_of_line_at(std::size_t at) const {
    std::size_t start = text_.rfind('\n', at == 0 ? 0 : at - 1);
    start = start == npos ? 0 : start + 1;
    std::size_t k = start;
    while (k < text_.size() && (text_[k] == ' ' || text_[k] == '-')) {
      ++k;
    }
    return k - start;
  }

  // Hides every line below a `name:` that is indented more than the name's own line.
  std::size_t hide_block(std::size_t name_at, std::size_t after_colon, std::vector<text_edit>& edits) {
    const std::size_t indentation = indentation_of_line_at(name_at);
    std::size_t line = text_.find('\n', after_colon);
    std::size_t last = after_colon;
    while (line != npos && line + 1 < text_.size()) {
      std::size_t start = line + 1;
      std::size_t k = start;
      while (k < text_.size() && text_[k] == ' ') {
        ++k;
      }
      std::size_t line_end = text_.find('\n', start);
      line_end = line_end == npos ? text_.size() : line_end;
      if (k < line_end && k - start <= indentation) {
        break;  // a line no deeper than the name: the block has ended
      }
      if (k < line_end) {
        edits.push_back(hidden_span(k, line_end));
      }
      last = line_end;
      line = line_end < text_.size() ? line_end : npos;
    }
    return last;
  }

  // The value that starts at `at`: a quoted string (its quotes kept outside), a bracketed
  // structure, or a bare word.
  std::optional<value_span> value_from(std::size_t at) const {
    value_span value{at, at, at, false};
    if (at >= text_.size()) {
      return value;
    }
    const char c = text_[at];
    if (c == '\\' && at + 1 < text_.size() && quote_char(text_[at + 1])) {
      const char closing[] = {'\\', text_[at + 1], 0};
      const std::size_t close = text_.find(closing, at + 2);
      return close == npos ? unclosed(at + 2) : std::optional<value_span>(value_span{at + 2, close, close + 2, true});
    }
    if (quote_char(c)) {
      for (std::size_t k = at + 1; k < text_.size(); ++k) {
        if (text_[k] == '\\' && c == '"') {
          ++k;
        } else if (text_[k] == c) {
          return value_span{at + 1, k, k + 1, true};
        }
      }
      return unclosed(at + 1);
    }
    if (c == '{' || c == '[') {
      const std::size_t close = matching_bracket(at);
      return value_span{at, close, close, false};
    }
    std::size_t end = at;
    while (end < text_.size() && !blank(text_[end])) {
      if (enclosing_ != 0 && text_[end] == enclosing_) {
        break;
      }
      if (text_[end] == '\\' && end + 1 < text_.size()) {
        if (enclosing_ != 0 && text_[end + 1] == enclosing_) {
          break;
        }
        end += 2;
        continue;
      }
      ++end;
    }
    end = std::min(end, text_.size());
    return value_span{at, end, end, false};
  }

  std::optional<value_span> unclosed(std::size_t content) const {
    if (how_ == reading::strict) {
      return std::nullopt;
    }
    return value_span{content, text_.size(), text_.size(), true};
  }

  // One past the bracket that closes the one at `at`, over quoted strings; the end of the text
  // when it is never closed.
  std::size_t matching_bracket(std::size_t at) const {
    std::size_t depth = 0;
    char quote = 0;
    for (std::size_t k = at; k < text_.size(); ++k) {
      const char c = text_[k];
      if (c == '\\') {
        ++k;  // an escaped character, quoted or not (\" inside bash -c "…")
      } else if (quote != 0) {
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return k + 1;
      }
    }
    return text_.size();
  }

  std::string_view text_;
  reading how_;
  char enclosing_ = 0;
};

// The argv reading: hidden arguments, and quoted words read again as texts of their own.
bool read_words(const shell_reading& words, reading how, std::size_t nesting, masking_run& run,
                std::vector<text_edit>& edits) {
  std::vector<argv_word> argv;
  argv.reserve(words.words.size());
  for (const shell_word& word : words.words) {
    argv.push_back({words.value(word), word.starts_command});
  }
  std::vector<std::size_t> hide_from(words.words.size(), npos);
  for (const argv_hide& hide : secret_arguments(argv, how == reading::lenient)) {
    hide_from[hide.word] = std::min(hide_from[hide.word], hide.from);
  }
  for (std::size_t i = 0; i < words.words.size(); ++i) {
    const shell_word& word = words.words[i];
    const std::string_view value = words.value(word);
    if (hide_from[i] != npos) {
      edits.push_back(hidden_span(words.place(word, hide_from[i]), words.place(word, value.size() - 1) + 1));
      continue;
    }
    const bool structured = !value.empty() && (value.front() == '{' || value.front() == '[');
    if (!word.quoted || !(structured || std::any_of(value.begin(), value.end(), blank))) {
      continue;
    }
    std::optional<std::string> inner = mask_nested_value(value, how, nesting + 1, run);
    if (!inner) {
      if (how == reading::strict) {
        return false;
      }
      edits.push_back(hidden_span(word.begin, word.end));
    } else if (*inner != value) {
      edits.push_back({word.begin, word.end, true, quoted_shell_word(*inner, word.quote)});
    }
  }
  return true;
}

// The text with the edits made. Where edits overlap, a nested reading of a word stands for the
// edits inside that word (it read the same characters with the quoting undone), and what is
// hidden stands for what lies inside it; any other overlap is hidden whole.
std::string apply_edits(std::string_view text, std::vector<text_edit>& edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const text_edit& a, const text_edit& b) { return a.begin < b.begin; });
  std::string out;
  out.reserve(text.size());
  std::size_t from = 0;
  std::size_t last_begin = 0;  // where the last edit's replacement starts in `out`
  bool any = false;
  for (const text_edit& edit : edits) {
    if (!any || edit.begin >= from) {
      out.append(text.substr(from, edit.begin - from));
      last_begin = out.size();
      out.append(edit.replacement);
      from = std::max(from, edit.end);
      any = true;
    } else if (edit.end > from) {
      out.resize(last_begin);
      out.append(hidden);
      from = edit.end;
    }
  }
  out.append(text.substr(std::min(from, text.size())));
  return out;
}

}  // namespace

std::optional<std::string> mask_text(std::string_view input, reading how, std::size_t nesting, masking_run& run) {
  if (nesting > max_nested_texts) {
    if (how == reading::lenient) {
      return std::string(hidden);
    }
    run.fail("it holds texts inside texts more than " + std::to_string(max_nested_texts) + " deep");
    return std::nullopt;
  }
  if (!run.spend(input.size() + 1)) {
    return std::nullopt;
  }
  // One word with no separator, quote or escape holds no secret position; nor does a text without
  // a stem of a secret word (a strict reading still checks below that its quotes close).
  if (input.find_first_of(" \t\n\r\v\f=:,(@'\"\\`{[") == std::string_view::npos ||
      (how == reading::lenient && !may_hold_secrets(input))) {
    return std::string(input);
  }
  stripped without_credentials = strip_uris_in_text(input);
  run.uris_stripped = run.uris_stripped || without_credentials.removed;
  const std::string_view text = without_credentials.text;
  shell_reading words = read_shell_words(text);
  if (words.unclosed && how == reading::strict) {
    run.fail("a quote in it is not closed");
    return std::nullopt;
  }
  std::vector<text_edit> edits;
  if (!read_words(words, how, nesting, run, edits)) {
    return std::nullopt;
  }
  if (!name_value_reader(text, how).read(edits)) {
    run.fail("a quote in it is not closed");
    return std::nullopt;
  }
  std::string out = edits.empty() ? std::string(text) : apply_edits(text, edits);
  if (!within_output_bound(input, out)) {
    run.fail("masked, it would be many times longer than written");
    return std::nullopt;
  }
  return out;
}

std::optional<std::string> mask_nested_value(std::string_view value, reading how, std::size_t nesting,
                                             masking_run& run) {
  std::size_t first = 0;
  while (first < value.size() && blank(value[first])) {
    ++first;
  }
  if (first < value.size() && (value[first] == '{' || value[first] == '[')) {
    yaml_masked structured = mask_yaml_text(value, nesting, run);
    if (structured.outcome == yaml_outcome::masked) {
      return structured.text;
    }
    if (structured.outcome == yaml_outcome::unsafe) {
      if (how == reading::lenient) {
        return std::string(hidden);
      }
      return std::nullopt;
    }
  }
  return mask_text(value, how, nesting, run);
}

}  // namespace sextant::masking
