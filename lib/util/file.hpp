#pragma once
// Reading a whole file, with the reason in plain words when it cannot be read.
#include <filesystem>
#include <optional>
#include <string>

namespace sextant {

// The file's bytes; nullopt with `error` set ("cannot read PATH: No such file or directory").
std::optional<std::string> read_file(const std::filesystem::path& path, std::string& error);

}  // namespace sextant
