#pragma once
// Writes large answers on a thread of its own, so that the event loop's passes stay short.
//
// On the loop, Asio sends at most 64 KB a turn, and every turn waits in the loop's queue behind
// every other connection's: with 256 clients pulling a 2 MB list, one pass of the loop was about
// 245 sends (5.6 ms), and a /healthz on the API port waited one or two passes (p99 15.7 ms). Here
// the loop lends such a connection's socket to the writer's own io_context for the length of one
// answer and takes it back afterwards; the bytes written are immutable (a cached view's shared
// body), so the writer touches nothing the loop owns.
//
// Over TLS the loop lends the connection's TLS session too: the writer encrypts the answer with
// it into a memory BIO put in place of the session's own write BIO, sends the records from there,
// then puts the session's BIO back. On the loop, Asio writes one 16 KB record a turn; here records
// go out in sends as large as the socket takes. The session is the loop's again only once the
// writer has given it back, and the loop does nothing with the connection meanwhile (it is
// suspended in write()). Writing alone must never need a read for this: the server refuses
// renegotiation (serving_tls), the only way a TLS 1.2 write could wait for the peer.
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <thread>
#include <utility>

#include <openssl/ssl.h>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/buffer.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace sextant {

class bulk_writer {
 public:
  // Answers at least this long are written here. Lending a socket costs a few system calls and two
  // crossings between threads, worth it for an answer that takes several sends on the loop.
  static constexpr std::size_t min_bytes = 256 * 1024;

  bulk_writer();
  ~bulk_writer();  // cancels the writes under way and joins the thread
  bulk_writer(const bulk_writer&) = delete;
  bulk_writer& operator=(const bulk_writer&) = delete;

  // Writes all of `parts` to `socket` on the writer's thread, then gives the socket back on its own
  // io_context, open unless the write timed out. `socket` must have no operation under way. Fails
  // with beast::error::timeout when the client has not taken every byte within `timeout` (Beast
  // closes the socket then).
  boost::asio::awaitable<boost::system::error_code> write(boost::asio::ip::tcp::socket& socket,
                                                          std::array<boost::asio::const_buffer, 2> parts,
                                                          std::chrono::steady_clock::duration timeout);

  // The same over TLS: `stream`'s session encrypts `parts` on the writer's thread, with the same
  // timeout and cancelling. `stream` must have no operation under way. Records of the session not
  // yet sent (none, once Asio's operations have completed) keep the write on the loop.
  boost::asio::awaitable<boost::system::error_code> write(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream,
                                                          std::array<boost::asio::const_buffer, 2> parts,
                                                          std::chrono::steady_clock::duration timeout);

  // Ends every write under way, and every later one at once, with operation_aborted (the server
  // is stopping).
  void cancel_all();

  // Answers written here so far (read on the loop; they are counted there).
  std::uint64_t writes() const { return writes_; }

 private:
  // What the writer's thread does with the lent descriptor: send the answer on `lent`.
  using sending = std::function<boost::asio::awaitable<boost::system::error_code>(boost::beast::tcp_stream& lent)>;

  // Lends `socket`'s descriptor to the writer's thread for `send`, and takes it back.
  boost::asio::awaitable<boost::system::error_code> lend(boost::asio::ip::tcp::socket& socket,
                                                         std::chrono::steady_clock::duration timeout, sending send);
  boost::asio::awaitable<std::pair<boost::system::error_code, boost::asio::ip::tcp::socket::native_handle_type>>
  write_here(boost::asio::ip::tcp protocol, boost::asio::ip::tcp::socket::native_handle_type handle,
             std::chrono::steady_clock::duration timeout, sending send);

  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  // Only touched on the writer's thread.
  std::set<boost::asio::ip::tcp::socket*> writing_;
  bool cancelled_ = false;
  std::uint64_t writes_ = 0;  // only touched on the loop
  std::thread thread_;
};

}  // namespace sextant
