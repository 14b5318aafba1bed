#pragma once
// Writing an answer's head and body over TLS, one after the other.
//
// asio::async_write over a std::array of two buffers re-offers both on every pass, the first
// shrunk to nothing once it is sent. beast::ssl_stream (a flat_stream) writes a sequence whose
// first buffer is below 16 KB and whose next would take it over 16 KB as that first buffer alone:
// an empty one, so the pass writes 0 bytes, and async_write stops there without an error. Over
// TLS every body of more than 16 KB was dropped after its head (the client waited for bytes that
// never came, and read the next answer's head as the body). Each part written on its own is a
// single buffer, which flat_stream passes through whole.
#include <array>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/write.hpp>

#include "kube/asio.hpp"

namespace sextant {

template <class Stream>
boost::asio::awaitable<boost::system::error_code> write_in_turn(Stream& stream,
                                                                std::array<boost::asio::const_buffer, 2> parts) {
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
