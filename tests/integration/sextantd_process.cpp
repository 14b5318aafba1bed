#include "sextantd_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "live_harness.hpp"
#include "spawn_logged.hpp"

namespace sextant::integration {
namespace {

unsigned short free_port() {
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor acceptor(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  return acceptor.local_endpoint().port();
}

void collect_differences(const json& a, const json& b, const std::string& at, std::vector<std::string>& out) {
  if (a.type() == b.type() && a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      collect_differences(it.value(), b.contains(it.key()) ? b[it.key()] : json(), at + "/" + it.key(), out);
    }
    for (auto it = b.begin(); it != b.end(); ++it) {
      if (!a.contains(it.key())) {
        out.push_back(at + "/" + it.key() + ": missing vs " + it.value().dump());
      }
    }
  } else if (a.type() == b.type() && a.is_array() && a.size() == b.size()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      collect_differences(a[i], b[i], at + "/" + std::to_string(i), out);
    }
  } else if (a != b) {
    out.push_back(at + ": " + a.dump().substr(0, 300) + " vs " + b.dump().substr(0, 300));
  }
}

}  // namespace

sextantd_process::sextantd_process(std::vector<std::string> args, const std::filesystem::path& log)
    : port_(free_port()) {
  args.insert(args.begin(), SEXTANT_BINARY);
  args.push_back("--listen");
  args.push_back("127.0.0.1:" + std::to_string(port_));
  args.push_back("--log-format");
  args.push_back("text");
  pid_ = spawn_logged(std::move(args), log);
}

sextantd_process::~sextantd_process() {
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
}

bool sextantd_process::wait_ready(std::chrono::seconds limit) const {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (http_get(url(), "/readyz").status == 200) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

json sextantd_process::get(const std::string& path) const {
  return http_get(url(), path).body();
}

std::vector<std::string> differences(const json& a, const json& b) {
  std::vector<std::string> out;
  collect_differences(a, b, "", out);
  return out;
}

std::vector<std::string> compare_page(const std::string& live_url, const std::string& path, const json& expected) {
  json got = http_get(live_url, path).body();
  for (int attempt = 0; attempt < 50 && got != expected; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    got = http_get(live_url, path).body();
  }
  return differences(got, expected);
}

live_and_snapshot::live_and_snapshot(const std::string& kubeconfig, const std::filesystem::path& snapshot,
                                     const std::filesystem::path& logs)
    : live({"--kubeconfig", kubeconfig}, logs / "live.log"),
      files({"--snapshot", snapshot.string()}, logs / "snapshot.log") {}

bool live_and_snapshot::ready() const {
  return live.wait_ready(std::chrono::seconds(60)) && files.wait_ready(std::chrono::seconds(30));
}

std::vector<std::string> live_and_snapshot::compare(const std::vector<std::string>& pages) const {
  std::vector<std::string> out;
  for (const std::string& page : pages) {
    for (const std::string& difference : compare_page(live.url(), page, files.get(page))) {
      out.push_back(page + ": " + difference);
    }
  }
  return out;
}

}  // namespace sextant::integration
