// Cache keys are built from outside text: a request's decoded path and query (the view cache) and
// a caller's identity (the access-decision cache). Two different requests, or two different
// callers, must never share a key: else one caller's answer or decision is served to another.
// The input is two requests (or two callers) separated by a newline; each pair is checked both
// ways: equal keys exactly when the parsed requests (callers) are equal.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/answer_key.hpp"
#include "auth/access_check.hpp"

namespace {

void check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "%s\n", what);
    std::abort();
  }
}

// Fields split at '\x01', lists within a field at '\x02': user, uid, groups, extra as
// name '\x03' values.
sextant::caller caller_of(std::string_view text) {
  auto split = [](std::string_view from, char at) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true) {
      std::size_t end = from.find(at, start);
      parts.emplace_back(from.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
      if (end == std::string_view::npos) {
        return parts;
      }
      start = end + 1;
    }
  };
  std::vector<std::string> fields = split(text, '\x01');
  fields.resize(4);
  sextant::caller who;
  who.user = fields[0];
  who.uid = fields[1];
  if (!fields[2].empty()) {
    who.groups = split(fields[2], '\x02');
  }
  if (!fields[3].empty()) {
    for (const std::string& entry : split(fields[3], '\x02')) {
      std::vector<std::string> name_values = split(entry, '\x03');
      std::vector<std::string>& values = who.extra[name_values[0]];
      values.assign(name_values.begin() + 1, name_values.end());
    }
  }
  return who;
}

bool same(const sextant::caller& a, const sextant::caller& b) {
  return a.user == b.user && a.uid == b.uid && a.groups == b.groups && a.extra == b.extra;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const std::string first(input.substr(0, newline));
  const std::string second(newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1));

  const sextant::parsed_target a = sextant::parse_target("/" + first);
  const sextant::parsed_target b = sextant::parse_target("/" + second);
  if (a.error.empty() && b.error.empty()) {
    const bool equal = a.segments == b.segments && a.query == b.query;
    for (bool gzip_a : {false, true}) {
      for (bool gzip_b : {false, true}) {
        const bool keys_equal = sextant::answer_key(sextant::answer_scope(a), gzip_a) ==
                                sextant::answer_key(sextant::answer_scope(b), gzip_b);
        check(keys_equal == (equal && gzip_a == gzip_b), "two answers share a key, or one answer has two");
      }
    }
    check((sextant::answer_scope(a) == sextant::answer_scope(b)) == equal, "two requests share an ETag scope");
  }

  const sextant::caller one = caller_of(first);
  const sextant::caller other = caller_of(second);
  const sextant::access_check list = sextant::access_check::on_resource("list", "g", "r", first.substr(0, 8));
  const sextant::access_check get = sextant::access_check::on_resource("get", "g", "r", second.substr(0, 8));
  check((sextant::access_key(one, list) == sextant::access_key(other, list)) == same(one, other),
        "two callers share an access key, or one caller has two");
  check((sextant::access_key(one, list) == sextant::access_key(one, get)) == (list == get),
        "two questions share an access key");
  return 0;
}
