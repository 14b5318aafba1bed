// URI stripping takes text from objects: no input may crash it, and a password or a signature
// written into a URI never comes out, wherever the URI stands in a sentence.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "util/masking/uris.hpp"

namespace {

constexpr std::string_view password_mark = "Zq7Secret";
constexpr std::string_view signature_mark = "Zq7Sig";

// Keeps the characters RFC 3986 allows in user info (unreserved, sub-delims, ':', '%').
std::string userinfo_chars(std::string_view text) {
  std::string out;
  for (char c : text) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || std::string_view("-._~!$&'()*+,;=:%").find(c) != std::string_view::npos) {
      out += c;
    }
  }
  return out;
}

std::string host_chars(std::string_view text) {
  std::string out;
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-') {
      out += c;
    }
  }
  return out.empty() ? std::string("h") : out;
}

// Path and query: anything but what ends a URI in text, and no '?' or '#' in the path.
std::string uri_chars(std::string_view text, bool path) {
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || std::string_view("\"<>`{}|\\^@").find(c) != std::string_view::npos) {
      continue;
    }
    if (path && (c == '?' || c == '#')) {
      continue;
    }
    out += c;
  }
  return out;
}

bool contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  // Any text at all: must not crash.
  (void)sextant::masking::strip_uri(input);
  (void)sextant::masking::strip_uris_in_text(input);

  // The input split at 0x01 bytes: prefix, user, password parts, host, path, query, suffix.
  std::string_view parts[8];
  std::size_t n = 0;
  std::size_t pos = 0;
  while (n < 7) {
    auto cut = input.find('\x01', pos);
    if (cut == std::string_view::npos) {
      break;
    }
    parts[n++] = input.substr(pos, cut - pos);
    pos = cut + 1;
  }
  parts[n] = input.substr(pos);
  std::string prefix(parts[0]);
  std::string user = userinfo_chars(parts[1]);
  std::string password = userinfo_chars(parts[2]) + std::string(password_mark) + userinfo_chars(parts[3]);
  std::string host = host_chars(parts[4]);
  std::string path = uri_chars(parts[5], true);
  std::string query = uri_chars(parts[6], false);
  std::string suffix(parts[7]);
  for (std::string_view other :
       {std::string_view(prefix), std::string_view(host), std::string_view(path), std::string_view(suffix)}) {
    if (contains(other, "Zq7")) {
      return 0;  // the mark written outside the URI may show there
    }
  }
  std::string uri = "s3://" + user + ":" + password + "@" + host + "/" + path +
                    "?X-Amz-Signature=" + std::string(signature_mark) + query;
  auto alone = sextant::masking::strip_uri(uri);
  if (contains(alone.text, password_mark) || contains(alone.text, signature_mark) || !alone.removed) {
    std::abort();
  }
  auto in_text = sextant::masking::strip_uris_in_text(prefix + " " + uri + " " + suffix);
  if (contains(in_text.text, password_mark) || contains(in_text.text, signature_mark) || !in_text.removed) {
    std::abort();
  }
  return 0;
}
