#pragma once
// Reading a whole file, once, with a size limit and the reason in plain words when it cannot
// be read, and writing one atomically. Files come from outside (a snapshot, --config, a mounted
// ConfigMap): a directory, a device that never ends (/dev/zero) or a pipe is an error, never a hang
// or a silent "empty".
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace sextant {

// What a small file the daemon reads (a kubeconfig, a certificate, a settings file) may hold.
constexpr std::uint64_t default_file_limit = std::uint64_t{64} << 20;

// The file's bytes, read into one buffer; nullopt with `error` set: "cannot read PATH: No such
// file or directory", "cannot read PATH: it is a directory", "PATH is larger than N bytes".
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& error,
                                     std::uint64_t max_bytes = default_file_limit);

// Writes `text` to PATH.tmp, flushes it and renames it over `path`, so that a reader sees the old
// bytes or the new, never half. Returns the error ("cannot write PATH.tmp: ...") or empty.
std::string write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace sextant
