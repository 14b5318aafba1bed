#pragma once
// Helpers for the kube client's tests: scratch folders, and running a coroutine to its end on
// a private io_context.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include "kube/asio.hpp"
#include "support/fixtures.hpp"

namespace sextant::kube::testing {

// A fresh folder under $TMPDIR, removed with the object.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "sextant-kube-XXXXXX").string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path write(const std::string& name, const std::string& text) const {
    std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

inline std::filesystem::path fixture(const std::string& name) {
  return sextant::testing::source_dir() / "tests" / "fixtures" / "kube" / name;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs `task` on `io` until it completes (or `limit` passes) and returns its value.
template <typename T>
std::optional<T> run_to_end(net::io_context& io, net::awaitable<T> task,
                            std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  std::optional<T> out;
  net::co_spawn(io, std::move(task), [&out](std::exception_ptr error, T value) {
    if (error) {
      std::rethrow_exception(error);
    }
    out = std::move(value);
  });
  io.restart();
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!out && std::chrono::steady_clock::now() < deadline) {
    io.run_for(std::chrono::milliseconds(10));
    io.restart();
  }
  return out;
}

// Runs `io` until `done()` holds or `limit` passes; returns whether it held.
template <typename Predicate>
bool run_until(net::io_context& io, Predicate done, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return false;
    }
    io.restart();
    io.run_for(std::chrono::milliseconds(2));
  }
  return true;
}

}  // namespace sextant::kube::testing
