#pragma once
// Reading and writing a whole file, with the reason in plain words when it cannot be done.
#include <filesystem>
#include <optional>
#include <string>

namespace sextant {

// The file's bytes; nullopt with `error` set ("cannot read PATH: No such file or directory").
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& error);

// Writes `text` to PATH.tmp, flushes it and renames it over `path`, so that a reader sees the old
// bytes or the new, never half. Returns the error ("cannot write PATH.tmp: ...") or empty.
std::string write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace sextant
