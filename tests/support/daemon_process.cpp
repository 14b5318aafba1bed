#include "support/daemon_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>

namespace sextant::testing {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

http_reply http_call(unsigned short port, const std::string& method, const std::string& target,
                     const std::map<std::string, std::string>& headers, const std::string& body) {
  asio::io_context io;
  beast::tcp_stream stream(io);
  stream.expires_after(std::chrono::seconds(10));
  stream.connect(asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> request{http::string_to_verb(method), target, 11};
  request.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) {
    request.set(name, value);
  }
  request.body() = body;
  request.prepare_payload();
  http::write(stream, request);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.skip(method == "HEAD");
  http::read(stream, buffer, parser);
  http_reply reply;
  reply.status = static_cast<int>(parser.get().result_int());
  for (const auto& field : parser.get()) {
    std::string name(field.name_string());
    for (char& c : name) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    reply.headers[name] = std::string(field.value());
  }
  reply.body = parser.get().body();
  beast::error_code ignored;
  stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  return reply;
}

std::pair<int, std::string> run_to_exit(const std::string& args, int seconds) {
  // `timeout`: a daemon that wrongly accepts what it is given would serve for ever.
  const std::string command =
      "timeout " + std::to_string(seconds) + " " + std::string(SEXTANT_BINARY) + " " + args + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    output += buffer;
  }
  const int status = ::pclose(pipe);
  return {WEXITSTATUS(status), output};
}

unsigned short free_port() {
  asio::io_context io;
  asio::ip::tcp::acceptor acceptor(io, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return acceptor.local_endpoint().port();
}

daemon_process::daemon_process(std::vector<std::string> args, no_wait) {
  launch(std::move(args));
}

daemon_process::daemon_process(std::vector<std::string> args) {
  launch(std::move(args));
  for (int attempt = 0; attempt < 200; ++attempt) {
    try {
      if (http_call(port_, "GET", "/healthz").status == 200) {
        return;
      }
    } catch (const std::exception&) {
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      FAIL("sextantd exited at start:\n" << log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL("sextantd did not answer /healthz within 10 s:\n" << log());
}

void daemon_process::launch(std::vector<std::string> args) {
  port_ = free_port();
  args.insert(args.begin(), SEXTANT_BINARY);
  args.push_back("--listen");
  args.push_back("127.0.0.1:" + std::to_string(port_));
  log_path_ = (std::filesystem::temp_directory_path() /
               ("sextantd-e2e-" + std::to_string(::getpid()) + "-" + std::to_string(port_) + ".log"))
                  .string();
  pid_ = ::fork();
  REQUIRE(pid_ >= 0);
  if (pid_ == 0) {
    int fd = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
    std::vector<char*> argv;
    for (std::string& arg : args) {
      argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
}

bool daemon_process::running() const {
  if (pid_ <= 0) {
    return false;
  }
  // WNOWAIT: look without reaping, so that stop() still reads the exit status.
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0;
}

bool daemon_process::signal(int number) const {
  return running() && ::kill(pid_, number) == 0;
}

bool daemon_process::wait_for_log(const std::string& text, std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (log().find(text) != std::string::npos) {
      return true;
    }
    if (!running()) {
      return log().find(text) != std::string::npos;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

daemon_process::~daemon_process() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
  std::filesystem::remove(log_path_);
}

int daemon_process::stop(int signal, std::chrono::milliseconds timeout) {
  if (pid_ <= 0) {
    return -1;
  }
  ::kill(pid_, signal);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

std::string daemon_process::log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace sextant::testing
