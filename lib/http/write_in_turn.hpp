#pragma once
// Writing an answer's head and body over TLS: in one record when they fit in one, else one after
// the other.
//
// Each TLS write is a record of its own and a send of its own. An answer of a few KB written as a
// head and then a body costs two records and two sends (and a second wakeup of the client) where
// nginx spends one, and the send is most of what a small answer costs. So an answer that fits in
// one record (16 KB of plaintext, the most a TLS record holds) is joined into one buffer first: a
// copy of at most 16 KB.
//
// A larger one is written part by part. asio::async_write over a std::array of two buffers
// re-offers both on every pass, the first shrunk to nothing once it is sent. beast::ssl_stream (a
// flat_stream) writes a sequence whose first buffer is below 16 KB and whose next would take it
// over 16 KB as that first buffer alone: an empty one, so the pass writes 0 bytes, and async_write
// stops there without an error. Over TLS every body of more than 16 KB was dropped after its head
// (the client waited for bytes that never came, and read the next answer's head as the body).
// Each part written on its own is a single buffer, which flat_stream passes through whole.
#include <array>
#include <cstddef>
#include <string>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>

#include "kube/asio.hpp"

namespace sextant {

// The most plaintext one TLS record carries (RFC 8446 5.1, RFC 5246 6.2.1).
inline constexpr std::size_t tls_record_plaintext = 16 * 1024;

template <class Stream>
boost::asio::awaitable<boost::system::error_code> write_in_turn(Stream& stream,
                                                                std::array<boost::asio::const_buffer, 2> parts) {
  // A head alone (a 304, a HEAD) is already one buffer: nothing to join.
  const bool both = parts[0].size() != 0 && parts[1].size() != 0;
  if (const std::size_t total = boost::asio::buffer_size(parts); both && total <= tls_record_plaintext) {
    std::string joined;
    joined.reserve(total);
    for (const boost::asio::const_buffer& part : parts) {
      joined.append(static_cast<const char*>(part.data()), part.size());
    }
    auto [error, written] = co_await boost::asio::async_write(stream, boost::asio::buffer(joined), kube::use_tuple);
    (void)written;
    co_return error;
  }
  for (const boost::asio::const_buffer& part : parts) {
    if (part.size() == 0) {
      continue;
    }
    auto [error, written] = co_await boost::asio::async_write(stream, part, kube::use_tuple);
    (void)written;
    if (error) {
      co_return error;
    }
  }
  co_return boost::system::error_code{};
}

}  // namespace sextant
