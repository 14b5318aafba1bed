#include "connect_proxy.hpp"

#include <future>
#include <list>
#include <regex>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace sextant::integration {
namespace net = boost::asio;
using tcp = net::ip::tcp;
constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

struct connect_proxy::impl {
  net::io_context io;
  // Keeps the loop running while no tunnel is open, so that drop_all() always gets an answer.
  net::executor_work_guard<net::io_context::executor_type> busy = net::make_work_guard(io);
  tcp::acceptor acceptor{io};
  std::list<std::weak_ptr<tcp::socket>> sockets;
};

namespace {

net::awaitable<void> relay(std::shared_ptr<tcp::socket> from, std::shared_ptr<tcp::socket> to,
                           const std::atomic<bool>* paused) {
  std::array<char, 16384> buffer{};
  net::steady_timer wait(from->get_executor());
  for (;;) {
    while (paused != nullptr && *paused) {
      wait.expires_after(std::chrono::milliseconds(10));
      co_await wait.async_wait(use_tuple);
      if (!from->is_open()) {
        co_return;
      }
    }
    auto [read_error, n] = co_await from->async_read_some(net::buffer(buffer), use_tuple);
    if (read_error) {
      break;
    }
    auto [write_error, written] = co_await net::async_write(*to, net::buffer(buffer.data(), n), use_tuple);
    if (write_error) {
      break;
    }
  }
  boost::system::error_code ignored;
  from->close(ignored);
  to->close(ignored);
}

net::awaitable<void> tunnel(std::shared_ptr<tcp::socket> client, connect_proxy::impl* state,
                            const std::atomic<bool>* paused, std::atomic<int>* opened) {
  std::string head;
  auto [read_error, n] = co_await net::async_read_until(*client, net::dynamic_buffer(head), "\r\n\r\n", use_tuple);
  if (read_error) {
    co_return;
  }
  std::smatch match;
  std::string first_line = head.substr(0, head.find("\r\n"));
  if (!std::regex_match(first_line, match, std::regex(R"(CONNECT (\[?[^\]\s]+\]?):(\d+) HTTP/1\.1)"))) {
    co_await net::async_write(*client, net::buffer(std::string("HTTP/1.1 405 Method Not Allowed\r\n\r\n")), use_tuple);
    co_return;
  }
  std::string host = match[1];
  if (host.front() == '[') {
    host = host.substr(1, host.size() - 2);
  }
  auto server = std::make_shared<tcp::socket>(client->get_executor());
  tcp::resolver resolver(client->get_executor());
  auto [resolve_error, endpoints] = co_await resolver.async_resolve(host, match[2].str(), use_tuple);
  if (!resolve_error) {
    auto [connect_error, endpoint] = co_await net::async_connect(*server, endpoints, use_tuple);
    resolve_error = connect_error;
  }
  if (resolve_error) {
    co_await net::async_write(*client, net::buffer(std::string("HTTP/1.1 502 Bad Gateway\r\n\r\n")), use_tuple);
    co_return;
  }
  ++*opened;
  state->sockets.push_back(client);
  state->sockets.push_back(server);
  co_await net::async_write(*client, net::buffer(std::string("HTTP/1.1 200 Connection established\r\n\r\n")),
                            use_tuple);
  std::string early = head.substr(head.find("\r\n\r\n") + 4);
  if (!early.empty()) {
    co_await net::async_write(*server, net::buffer(early), use_tuple);
  }
  net::co_spawn(client->get_executor(), relay(client, server, nullptr), net::detached);
  net::co_spawn(client->get_executor(), relay(server, client, paused), net::detached);
}

net::awaitable<void> accept_loop(connect_proxy::impl* state, const std::atomic<bool>* paused,
                                 std::atomic<int>* opened) {
  for (;;) {
    auto client = std::make_shared<tcp::socket>(state->io);
    auto [error] = co_await state->acceptor.async_accept(*client, use_tuple);
    if (error) {
      co_return;
    }
    net::co_spawn(state->io, tunnel(client, state, paused, opened), net::detached);
  }
}

}  // namespace

connect_proxy::connect_proxy() : impl_(std::make_unique<impl>()) {
  tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"), 0);
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  net::co_spawn(impl_->io, accept_loop(impl_.get(), &paused_, &opened_), net::detached);
  thread_ = std::thread([this] { impl_->io.run(); });
}

connect_proxy::~connect_proxy() {
  drop_all();
  net::post(impl_->io, [this] {
    boost::system::error_code ignored;
    impl_->acceptor.close(ignored);
    impl_->busy.reset();
    impl_->io.stop();
  });
  thread_.join();
}

std::string connect_proxy::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->acceptor.local_endpoint().port());
}

kube::connection_config connect_proxy::through(kube::connection_config config) const {
  config.proxy = *kube::parse_url(url()).value;
  return config;
}

void connect_proxy::drop_all() {
  std::promise<void> done;
  net::post(impl_->io, [this, &done] {
    for (auto& weak : impl_->sockets) {
      if (auto socket = weak.lock()) {
        boost::system::error_code ignored;
        socket->shutdown(tcp::socket::shutdown_both, ignored);
        socket->close(ignored);
      }
    }
    impl_->sockets.clear();
    done.set_value();
  });
  done.get_future().wait();
}

}  // namespace sextant::integration
