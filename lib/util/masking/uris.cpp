#include "util/masking/uris.hpp"

#include <cstddef>

namespace sextant::masking {
namespace {

bool all_digits(std::string_view text) {
  for (char c : text) {
    if (c < '0' || c > '9') {
      return false;
    }
  }
  return true;
}

// Where a URI's authority or path ends: the query or the fragment.
std::size_t query_start(std::string_view uri, std::size_t from) {
  auto at = uri.find_first_of("?#", from);
  return at == std::string_view::npos ? uri.size() : at;
}

// Appends host[:port] of the authority uri[begin, end) to `out`, without user info and without a
// port that is not a number. Returns whether something was dropped.
bool append_host(std::string_view uri, std::size_t begin, std::size_t end, std::string& out) {
  std::string_view authority = uri.substr(begin, end - begin);
  bool removed = false;
  if (auto at = authority.rfind('@'); at != std::string_view::npos) {
    authority.remove_prefix(at + 1);
    removed = true;
  }
  std::string_view host = authority;
  std::string_view rest;
  if (!authority.empty() && authority.front() == '[') {  // an IPv6 literal, maybe with a zone
    auto close = authority.find(']');
    if (close == std::string_view::npos) {
      host = authority;  // unterminated: no port can be told apart, keep as written
    } else {
      host = authority.substr(0, close + 1);
      rest = authority.substr(close + 1);
    }
  } else if (auto colon = authority.find(':'); colon != std::string_view::npos) {
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
      return true;
    default:
      return false;
  }
}

// Characters that end a URI in free text: whitespace, controls, and characters RFC 3986 never
// allows unencoded.
bool ends_uri(char c) {
  auto u = static_cast<unsigned char>(c);
  if (u <= 0x20 || u == 0x7f) {
    return true;
  }
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
      return false;
  }
}

bool scheme_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

}  // namespace

stripped strip_uri(std::string_view uri) {
  stripped result;
  std::string& out = result.text;
  out.reserve(uri.size());
  std::size_t end = query_start(uri, 0);
  if (end < uri.size()) {
    result.removed = true;  // a query or a fragment, even an empty one
  }
  std::size_t pos = 0;
  auto slashes = uri.substr(0, end).find("//");
  if (slashes == std::string_view::npos) {
    // No authority ("urn:x", "user:pw@host"): drop what stands before an '@' with a ':' in it.
    std::string_view head = uri.substr(0, end);
    if (auto at = head.rfind('@');
        at != std::string_view::npos && head.substr(0, at).find(':') != std::string_view::npos) {
      head.remove_prefix(at + 1);
      result.removed = true;
    }
    out.append(head);
    return result;
  }
  while (slashes != std::string_view::npos) {
    std::size_t authority = slashes + 2;
    out.append(uri.substr(pos, authority - pos));
    std::size_t authority_end = uri.find('/', authority);
    if (authority_end == std::string_view::npos || authority_end > end) {
      authority_end = end;
    }
    std::string_view region = uri.substr(authority, authority_end - authority);
    // A password with a '/' written unencoded ("u:pa/ss@host"): the authority seems to end early
    // with a port that is no number; the user info then runs to the last '@' before the query.
    if (region.find('@') == std::string_view::npos) {
      std::string_view candidate = uri.substr(authority, end - authority);
      auto colon = region.find(':');
      bool bracketed = !region.empty() && region.front() == '[';
      if (!bracketed && colon != std::string_view::npos && !all_digits(region.substr(colon + 1))) {
        if (auto at = candidate.rfind('@'); at != std::string_view::npos) {
          authority += at + 1;
          result.removed = true;
          authority_end = uri.find('/', authority);
          if (authority_end == std::string_view::npos || authority_end > end) {
            authority_end = end;
          }
        }
      }
    }
    result.removed = append_host(uri, authority, authority_end, out) || result.removed;
    pos = authority_end;
    slashes = uri.substr(0, end).find("//", pos);
    if (slashes == std::string_view::npos) {
      out.append(uri.substr(pos, end - pos));
    }
  }
  return result;
}

stripped strip_uris_in_text(std::string_view text) {
  stripped result;
  std::string& out = result.text;
  out.reserve(text.size());
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto mark = text.find("://", pos);
    if (mark == std::string_view::npos) {
      break;
    }
    std::size_t start = mark;
    while (start > pos && scheme_char(text[start - 1])) {
      --start;
    }
    std::size_t stop = mark + 3;
    while (stop < text.size() && !ends_uri(text[stop])) {
      ++stop;
    }
    std::size_t token_end = stop;
    while (token_end > mark + 3 && sentence_punctuation(text[token_end - 1])) {
      --token_end;
    }
    out.append(text.substr(pos, start - pos));
    auto uri = strip_uri(text.substr(start, token_end - start));
    out.append(uri.text);
    result.removed = result.removed || uri.removed;
    out.append(text.substr(token_end, stop - token_end));
    pos = stop;
  }
  if (pos < text.size()) {
    out.append(text.substr(pos));
  }
  return result;
}

}  // namespace sextant::masking
