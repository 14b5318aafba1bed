#include "fake_kubelet.hpp"

#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <array>
#include <future>
#include <list>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "util/percent_encoding.hpp"

namespace sextant::integration {
namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

constexpr auto use_tuple = net::as_tuple(net::use_awaitable);

// A fresh P-256 key and a certificate for 127.0.0.1 signed by itself, put into `context`.
void self_signed(ssl::context& context) {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  X509* cert = X509_new();
  X509_set_version(cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert), 86400);
  X509_set_pubkey(cert, key);
  X509_NAME* name = X509_get_subject_name(cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("fake-kubelet"), -1, -1,
                             0);
  X509_set_issuer_name(cert, name);
  X509V3_CTX v3;
  X509V3_set_ctx_nodb(&v3);
  X509V3_set_ctx(&v3, cert, cert, nullptr, nullptr, 0);
  X509_EXTENSION* san = X509V3_EXT_conf_nid(nullptr, &v3, NID_subject_alt_name, "IP:127.0.0.1");
  X509_add_ext(cert, san, -1);
  X509_EXTENSION_free(san);
  X509_sign(cert, key, EVP_sha256());
  SSL_CTX_use_certificate(context.native_handle(), cert);
  SSL_CTX_use_PrivateKey(context.native_handle(), key);
  X509_free(cert);
  EVP_PKEY_free(key);
}

struct follower {
  std::string key;  // ns/pod/container
  std::string pending;
  bool broken = false;
  std::unique_ptr<net::steady_timer> wake;
};

}  // namespace

struct fake_kubelet::state {
  state() : tls(ssl::context::tls_server), acceptor(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)) {
    self_signed(tls);
  }
  net::io_context io;
  ssl::context tls;
  tcp::acceptor acceptor;
  std::thread thread;

  // Touched on the loop only.
  std::map<std::string, std::string> logs;
  std::list<follower> followers;

  // Read from the test thread.
  mutable std::mutex mutex;
  std::vector<std::string> seen;
  std::atomic<int> open{0};
  std::atomic<int> closed{0};
};

namespace {

// The last `count` lines of a log whose lines end with '\n', as tailLines gives them.
std::string last_lines(const std::string& log, long long count) {
  std::vector<std::size_t> starts;
  for (std::size_t at = 0; at < log.size();) {
    starts.push_back(at);
    std::size_t newline = log.find('\n', at);
    if (newline == std::string::npos) {
      break;
    }
    at = newline + 1;
  }
  if (count <= 0) {
    return {};
  }
  if (static_cast<std::size_t>(count) >= starts.size()) {
    return log;
  }
  return log.substr(starts[starts.size() - static_cast<std::size_t>(count)]);
}

net::awaitable<void> serve(std::shared_ptr<fake_kubelet::state> s, tcp::socket socket) {
  beast::ssl_stream<beast::tcp_stream> stream(std::move(socket), s->tls);
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(30));
  auto [handshake_error] = co_await stream.async_handshake(ssl::stream_base::server, use_tuple);
  if (handshake_error) {
    co_return;
  }
  beast::flat_buffer buffer;
  http::request<http::empty_body> request;
  auto [read_error, read] = co_await http::async_read(stream, buffer, request, use_tuple);
  (void)read;
  if (read_error) {
    co_return;
  }
  beast::get_lowest_layer(stream).expires_never();
  const std::string target(request.target());
  {
    std::lock_guard lock(s->mutex);
    s->seen.push_back(target);
  }
  // /containerLogs/{ns}/{pod}/{container}?follow=true&tailLines=N
  std::string path = target.substr(0, target.find('?'));
  std::string query = target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1);
  bool follow = false;
  long long tail = -1;
  for (std::size_t at = 0; at <= query.size();) {
    std::size_t end = query.find('&', at);
    std::string part = query.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (part == "follow=true") {
      follow = true;
    } else if (part.starts_with("tailLines=")) {
      tail = std::stoll(part.substr(10));
    }
    if (end == std::string::npos) {
      break;
    }
    at = end + 1;
  }
  const std::string prefix = "/containerLogs/";
  std::string key = path.starts_with(prefix) ? percent_decode(path.substr(prefix.size())).value_or("") : "";
  auto log = s->logs.find(key);
  if (log == s->logs.end()) {
    http::response<http::string_body> missing{http::status::not_found, 11};
    missing.set(http::field::content_type, "text/plain");
    missing.body() = "container not found (\"" + key + "\")";
    missing.prepare_payload();
    missing.keep_alive(false);
    co_await http::async_write(stream, missing, use_tuple);
    co_return;
  }
  http::response<http::empty_body> header{http::status::ok, 11};
  header.set(http::field::content_type, "text/plain");
  header.chunked(true);
  header.keep_alive(false);
  http::response_serializer<http::empty_body> serializer(header);
  auto [header_error, header_bytes] = co_await http::async_write_header(stream, serializer, use_tuple);
  (void)header_bytes;
  if (header_error) {
    co_return;
  }
  std::string first = tail >= 0 ? last_lines(log->second, tail) : log->second;
  if (!first.empty()) {
    co_await net::async_write(stream, http::make_chunk(net::buffer(first)), use_tuple);
  }
  if (!follow) {
    co_await net::async_write(stream, http::make_chunk_last(), use_tuple);
    co_return;
  }
  s->followers.push_back(follower{key, {}, false, std::make_unique<net::steady_timer>(s->io)});
  auto me = std::prev(s->followers.end());
  ++s->open;
  // The API server closing its end shows as a read that ends.
  bool peer_closed = false;
  net::co_spawn(
      s->io,
      [&stream, &peer_closed, wake = me->wake.get()]() -> net::awaitable<void> {
        std::array<char, 256> scratch{};
        for (;;) {
          auto [error, got] = co_await stream.async_read_some(net::buffer(scratch), use_tuple);
          (void)got;
          if (error) {
            break;
          }
        }
        peer_closed = true;
        wake->cancel();
      },
      net::detached);
  for (;;) {
    if (!me->pending.empty()) {
      std::string text = std::move(me->pending);
      me->pending.clear();
      auto [error, written] = co_await net::async_write(stream, http::make_chunk(net::buffer(text)), use_tuple);
      (void)written;
      if (error) {
        peer_closed = true;
      }
      continue;
    }
    if (peer_closed || me->broken) {
      break;
    }
    me->wake->expires_after(std::chrono::hours(1));
    co_await me->wake->async_wait(use_tuple);
  }
  if (peer_closed) {
    ++s->closed;
  }
  // Broken or not, the TCP connection just goes: no last chunk, no TLS close.
  beast::get_lowest_layer(stream).socket().close();
  // Let the reader see its socket closed before the frame holding `stream` goes.
  net::steady_timer settle(s->io, std::chrono::milliseconds(50));
  co_await settle.async_wait(use_tuple);
  --s->open;
  s->followers.erase(me);
}

net::awaitable<void> accept(std::shared_ptr<fake_kubelet::state> s) {
  for (;;) {
    auto [error, socket] = co_await s->acceptor.async_accept(use_tuple);
    if (error) {
      co_return;
    }
    net::co_spawn(s->io, serve(s, std::move(socket)), net::detached);
  }
}

}  // namespace

fake_kubelet::fake_kubelet() : state_(std::make_shared<state>()) {
  net::co_spawn(state_->io, accept(state_), net::detached);
  state_->thread = std::thread([s = state_.get()] { s->io.run(); });
}

fake_kubelet::~fake_kubelet() {
  net::post(state_->io, [s = state_.get()] {
    boost::system::error_code ignored;
    s->acceptor.close(ignored);
    s->io.stop();
  });
  state_->thread.join();
}

unsigned short fake_kubelet::port() const {
  return state_->acceptor.local_endpoint().port();
}

json fake_kubelet::node_status() const {
  return json{{"addresses", json::array({{{"type", "InternalIP"}, {"address", "127.0.0.1"}},
                                         {{"type", "Hostname"}, {"address", "127.0.0.1"}}})},
              {"daemonEndpoints", {{"kubeletEndpoint", {{"Port", port()}}}}},
              {"conditions", json::array({{{"type", "Ready"}, {"status", "True"}, {"reason", "KubeletReady"}}})}};
}

void fake_kubelet::append(const std::string& namespace_, const std::string& pod, const std::string& container,
                          const std::string& text) {
  std::string key = namespace_ + "/" + pod + "/" + container;
  std::promise<void> done;
  net::post(state_->io, [s = state_.get(), key, text, &done] {
    s->logs[key] += text;
    for (follower& f : s->followers) {
      if (f.key == key) {
        f.pending += text;
        f.wake->cancel();
      }
    }
    done.set_value();
  });
  done.get_future().wait();
}

void fake_kubelet::break_streams(const std::string& namespace_, const std::string& pod) {
  std::string prefix = namespace_ + "/" + pod + "/";
  net::post(state_->io, [s = state_.get(), prefix] {
    for (follower& f : s->followers) {
      if (f.key.starts_with(prefix)) {
        f.broken = true;
        f.wake->cancel();
      }
    }
  });
}

int fake_kubelet::open_follows() const {
  return state_->open.load();
}

int fake_kubelet::closed_by_peer() const {
  return state_->closed.load();
}

std::vector<std::string> fake_kubelet::requests() const {
  std::lock_guard lock(state_->mutex);
  return state_->seen;
}

}  // namespace sextant::integration
