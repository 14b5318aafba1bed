#include "util/masking/uris.hpp"

#include <cstddef>
#include <vector>

#include "util/masking/characters.hpp"

namespace sextant::masking {
namespace {

constexpr std::size_t none = std::string_view::npos;

bool all_digits(std::string_view text) {
  for (char c : text) {
    if (!ascii_digit(c)) {
      return false;
    }
  }
  return true;
}

// Where a URI's authority or path ends: the query or the fragment.
std::size_t query_start(std::string_view uri, std::size_t from) {
  auto at = uri.find_first_of("?#", from);
  return at == none ? uri.size() : at;
}

// Appends host[:port] of the authority uri[begin, end) to `out`, without user info and without a
// port that is not a number. Returns whether something was dropped.
bool append_host(std::string_view uri, std::size_t begin, std::size_t end, std::string& out) {
  std::string_view authority = uri.substr(begin, end - begin);
  bool removed = false;
  if (auto at = authority.rfind('@'); at != none) {
    authority.remove_prefix(at + 1);
    removed = true;
  }
  std::string_view host = authority;
  std::string_view rest;
  if (!authority.empty() && authority.front() == '[') {  // an IPv6 literal, maybe with a zone
    auto close = authority.find(']');
    if (close != none) {
      host = authority.substr(0, close + 1);
      rest = authority.substr(close + 1);
    }
  } else if (auto colon = authority.find(':'); colon != none) {
    host = authority.substr(0, colon);
    rest = authority.substr(colon);
  }
  out.append(host);
  if (!rest.empty()) {
    if (rest.front() == ':' && all_digits(rest.substr(1))) {
      out.append(rest);
    } else {
      removed = true;  // "user:password" without an '@' here: not a port, never shown
    }
  }
  return removed;
}

// Trailing characters a sentence puts after a URI ("see https://x/y.").
bool sentence_punctuation(char c) {
  switch (c) {
    case '.':
    case ',':
    case ';':
    case ':':
    case '!':
    case '?':
    case ')':
    case ']':
    case '}':
    case '\'':
    case '"':
      return true;
    default:
      return false;
  }
}

// Characters RFC 3986 never allows unencoded: past the user info, a URI in text ends at one.
bool forbidden_in_uri(char c) {
  switch (c) {
    case '"':
    case '<':
    case '>':
    case '`':
    case '{':
    case '}':
    case '|':
    case '\\':
    case '^':
      return true;
    default:
      return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  }
}

bool scheme_char(char c) {
  return ascii_alnum(c) || c == '+' || c == '-' || c == '.';
}

// The character that closes a URI opened right after `opener`, or 0.
char closer_of(char opener) {
  switch (opener) {
    case '"':
      return '"';
    case '\'':
      return '\'';
    case '`':
      return '`';
    case '(':
      return ')';
    case '<':
      return '>';
    case '[':
      return ']';
    case '{':
      return '}';
    default:
      return 0;
  }
}

// One word of text (no blanks) that holds "://": where its characters are, found once, so that
// every URI in it is stripped in time linear in the word.
struct word_marks {
  explicit word_marks(std::string_view word)
      : next_slashy(word.size() + 1), next_query(word.size() + 1), last_at_before(word.size() + 1) {
    next_slashy[word.size()] = next_query[word.size()] = word.size();
    for (std::size_t i = word.size(); i-- > 0;) {
      const char c = word[i];
      next_query[i] = (c == '?' || c == '#') ? i : next_query[i + 1];
      next_slashy[i] = (c == '/' || c == '?' || c == '#') ? i : next_slashy[i + 1];
    }
    last_at_before[0] = none;
    for (std::size_t i = 0; i < word.size(); ++i) {
      last_at_before[i + 1] = word[i] == '@' ? i : last_at_before[i];
    }
  }
  std::vector<std::size_t> next_slashy;     // first '/', '?' or '#' at or after i
  std::vector<std::size_t> next_query;      // first '?' or '#' at or after i
  std::vector<std::size_t> last_at_before;  // last '@' before i, or none
};

// Where the user info of the URI whose authority starts at `begin` ends (its last '@'), or none.
std::size_t user_info_end(std::string_view word, const word_marks& marks, std::size_t begin) {
  const std::size_t authority_end = marks.next_slashy[begin];
  const std::size_t at = marks.last_at_before[authority_end];
  if (at != none && at >= begin) {
    return at;
  }
  // "user:pa/ss@host": a "port" that is no number before the first '/' means a password with a
  // '/' in it; its user info runs to the last '@' before the query.
  std::string_view authority = word.substr(begin, authority_end - begin);
  auto colon = authority.find(':');
  if (colon == none || authority.starts_with('[') || all_digits(authority.substr(colon + 1))) {
    return none;
  }
  const std::size_t later = marks.last_at_before[marks.next_query[begin]];
  return later != none && later >= begin ? later : none;
}

// Strips every scheme URI in a blank-free word that holds "://".
void strip_word_with_schemes(std::string_view word, stripped& result) {
  const word_marks marks(word);
  std::string& out = result.text;
  std::size_t pos = 0;
  for (std::size_t mark = word.find("://"); mark != none; mark = word.find("://", pos)) {
    std::size_t start = mark;
    while (start > pos && scheme_char(word[start - 1])) {
      --start;
    }
    const char closer = start > 0 ? closer_of(word[start - 1]) : 0;
    const std::size_t authority = mark + 3;
    std::size_t host = authority;
    if (std::size_t at = user_info_end(word, marks, authority); at != none) {
      host = at + 1;
      result.removed = true;
    }
    std::size_t stop = host;
    if (closer != 0) {
      stop = word.find(closer, host);
      stop = stop == none ? word.size() : stop;
      if (stop > host && word[stop - 1] == '\\' && start > 1 && word[start - 2] == '\\') {
        --stop;  // \"https://…\": the escaped closing quote stays whole
      }
    } else {
      while (stop < word.size() && !forbidden_in_uri(word[stop])) {
        ++stop;
      }
      while (stop > host && sentence_punctuation(word[stop - 1])) {
        --stop;
      }
    }
    out.append(word.substr(pos, start - pos));
    std::string uri(word.substr(start, authority - start));
    uri.append(word.substr(host, stop - host));
    stripped shown = strip_uri(uri);
    out.append(shown.text);
    result.removed = result.removed || shown.removed;
    pos = stop;
  }
  out.append(word.substr(pos));
}

bool host_start(char c) {
  return ascii_alnum(c) || c == '[';
}

bool user_info_delimiter(char c) {
  switch (c) {
    case '"':
    case '\'':
    case '`':
    case '(':
    case '<':
    case '[':
    case '{':
    case '=':
    case ',':
    case ';':
      return true;
    default:
      return false;
  }
}

// A blank-free word without a scheme: "user:password@host" loses "user:password@". An image
// digest (name:tag@sha256:…) and "git@host:path" are left as they are.
void strip_word_without_scheme(std::string_view word, stripped& result) {
  const std::size_t at = word.rfind('@');
  if (at == none || at + 1 >= word.size() || !host_start(word[at + 1]) || word.substr(at + 1).starts_with("sha256:") ||
      word.substr(at + 1).starts_with("sha512:")) {
    result.text.append(word);
    return;
  }
  std::string_view head = word.substr(0, at);
  const std::size_t colon = head.find(':');
  if (colon == none) {
    result.text.append(word);
    return;
  }
  std::size_t start = colon;
  while (start > 0 && !user_info_delimiter(head[start - 1])) {
    --start;
  }
  if (head.substr(start).find('/') != none) {
    result.text.append(word);
    return;
  }
  result.text.append(word.substr(0, start));
  result.text.append(word.substr(at + 1));
  result.removed = true;
}

}  // namespace

stripped strip_uri(std::string_view uri) {
  stripped result;
  std::string& out = result.text;
  out.reserve(uri.size());
  const std::size_t end = query_start(uri, 0);
  if (end < uri.size()) {
    result.removed = true;  // a query or a fragment, even an empty one
  }
  const std::string_view before_query = uri.substr(0, end);
  std::size_t slashes = before_query.find("//");
  if (slashes == none) {
    // No authority ("urn:x", "user:pw@host"): drop what stands before an '@' with a ':' in it.
    std::string_view head = before_query;
    if (auto at = head.rfind('@'); at != none && head.substr(0, at).find(':') != none) {
      head.remove_prefix(at + 1);
      result.removed = true;
    }
    out.append(head);
    return result;
  }
  const std::size_t last_at = before_query.rfind('@');
  std::size_t pos = 0;
  while (slashes != none) {
    std::size_t authority = slashes + 2;
    out.append(uri.substr(pos, authority - pos));
    std::size_t authority_end = std::min(before_query.find('/', authority), end);
    std::string_view region = uri.substr(authority, authority_end - authority);
    // A password with a '/' written unencoded ("u:pa/ss@host"): the authority seems to end early
    // with a port that is no number; the user info then runs to the last '@' before the query.
    if (region.find('@') == none && last_at != none && last_at >= authority) {
      auto colon = region.find(':');
      bool bracketed = !region.empty() && region.front() == '[';
      if (!bracketed && colon != none && !all_digits(region.substr(colon + 1))) {
        authority = last_at + 1;
        result.removed = true;
        authority_end = std::min(before_query.find('/', authority), end);
      }
    }
    result.removed = append_host(uri, authority, authority_end, out) || result.removed;
    pos = authority_end;
    slashes = before_query.find("//", pos);
    if (slashes == none) {
      out.append(uri.substr(pos, end - pos));
    }
  }
  return result;
}

stripped strip_uris_in_text(std::string_view text) {
  stripped result;
  if (text.find('@') == none && text.find("://") == none) {
    result.text = std::string(text);
    return result;
  }
  result.text.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (blank(text[pos])) {
      result.text.push_back(text[pos++]);
      continue;
    }
    std::size_t end = pos;
    while (end < text.size() && !blank(text[end])) {
      ++end;
    }
    std::string_view word = text.substr(pos, end - pos);
    if (word.find("://") != none) {
      strip_word_with_schemes(word, result);
    } else if (word.find('@') != none) {
      strip_word_without_scheme(word, result);
    } else {
      result.text.append(word);
    }
    pos = end;
  }
  return result;
}

}  // namespace sextant::masking
