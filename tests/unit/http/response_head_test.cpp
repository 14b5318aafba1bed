// The answer's head as the server writes it by hand: what Beast's serializer wrote before, field
// for field, for both HTTP versions, bodies and no bodies.
#include "http/response_head.hpp"

#include <catch2/catch.hpp>

using namespace sextant;

TEST_CASE("an answer's head carries the status line, the fixed fields, the answer's own and its length", "[http]") {
  const std::vector<std::pair<std::string, std::string>> fields{{"ETag", "\"v1-7\""}, {"Vary", "Accept-Encoding"}};
  std::string out = "what the last answer left";
  format_response_head(out, {200, 11, "application/json", &fields, true, 1234});
  CHECK(out ==
        "HTTP/1.1 200 OK\r\n"
        "Server: sextantd\r\n"
        "Content-Type: application/json\r\n"
        "Cache-Control: no-cache\r\n"
        "ETag: \"v1-7\"\r\n"
        "Vary: Accept-Encoding\r\n"
        "Content-Length: 1234\r\n"
        "\r\n");
}

TEST_CASE("a 304 has no length, and a closing HTTP/1.1 connection says so", "[http]") {
  std::string out;
  format_response_head(out, {304, 11, "application/json", nullptr, false, std::nullopt});
  CHECK(out ==
        "HTTP/1.1 304 Not Modified\r\n"
        "Server: sextantd\r\n"
        "Content-Type: application/json\r\n"
        "Cache-Control: no-cache\r\n"
        "Connection: close\r\n"
        "\r\n");
}

TEST_CASE("HTTP/1.0 keeps the connection only when told, and an empty body has length 0", "[http]") {
  std::string out;
  format_response_head(out, {404, 10, "application/json", nullptr, true, 0});
  CHECK(out.starts_with("HTTP/1.0 404 Not Found\r\n"));
  CHECK(out.find("Connection: keep-alive\r\n") != std::string::npos);
  CHECK(out.ends_with("Content-Length: 0\r\n\r\n"));
  format_response_head(out, {503, 10, "application/json", nullptr, false, 10});
  CHECK(out.starts_with("HTTP/1.0 503 Service Unavailable\r\n"));
  CHECK(out.find("Connection") == std::string::npos);
}

TEST_CASE("a field value cannot end the head early", "[http]") {
  const std::vector<std::pair<std::string, std::string>> fields{{"Allow", "GET\r\nX-Injected: yes"}};
  std::string out;
  format_response_head(out, {405, 11, "application/json", &fields, true, 2});
  CHECK(out.find("Allow: GET  X-Injected: yes\r\n") != std::string::npos);
  CHECK(out.find("\r\nX-Injected") == std::string::npos);
}

TEST_CASE("a large length is written in full", "[http]") {
  std::string out;
  format_response_head(out, {200, 11, "text/plain; charset=utf-8", nullptr, true, 18446744073709551615ULL});
  CHECK(out.find("Content-Length: 18446744073709551615\r\n") != std::string::npos);
}
