#include "http/response_head.hpp"

#include <charconv>
// Beast's status.hpp defines, header-only, an operator<< on std::ostream that it declares with
// <iosfwd> alone: without <ostream> here, a file compiled on its own (run-demo.sh, the
// Dockerfile) does not build.
#include <ostream>

#include <boost/beast/http/status.hpp>

namespace sextant {
namespace {

void append_value(std::string& out, std::string_view value) {
  const std::size_t from = out.size();
  out += value;
  for (std::size_t at = from; at < out.size(); ++at) {
    if (out[at] == '\r' || out[at] == '\n') {
      out[at] = ' ';
    }
  }
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += name;
  out += ": ";
  append_value(out, value);
  out += "\r\n";
}

void append_number(std::string& out, std::size_t number) {
  char digits[24];
  const auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
  (void)error;  // 24 digits hold any std::size_t
  out.append(digits, end);
}

}  // namespace

void format_response_head(std::string& out, const response_head& head) {
  out.clear();
  out += head.version == 10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  append_number(out, static_cast<std::size_t>(head.status));
  out += ' ';
  out += boost::beast::http::obsolete_reason(static_cast<boost::beast::http::status>(head.status));
  out += "\r\n";
  append_field(out, "Server", "sextantd");
  append_field(out, "Content-Type", head.content_type);
  append_field(out, "Cache-Control", "no-cache");
  if (head.fields != nullptr) {
    for (const auto& [name, value] : *head.fields) {
      append_field(out, name, value);
    }
  }
  // HTTP/1.1 keeps a connection open unless told; HTTP/1.0 closes it unless told.
  if (head.version == 10 && head.keep_alive) {
    append_field(out, "Connection", "keep-alive");
  } else if (head.version != 10 && !head.keep_alive) {
    append_field(out, "Connection", "close");
  }
  if (head.content_length) {
    out += "Content-Length: ";
    append_number(out, *head.content_length);
    out += "\r\n";
  }
  out += "\r\n";
}

}  // namespace sextant
