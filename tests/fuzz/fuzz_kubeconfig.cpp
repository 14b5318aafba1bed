// A kubeconfig is the user's file: whatever it holds, loading it must end in a connection or
// one error sentence, never a crash. The bytes go through a real file because the loader
// resolves relative paths against the file's folder.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "kube/kubeconfig.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("sextant-fuzz-kubeconfig-" + std::to_string(getpid()) + ".yaml");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  sextant::kube::kubeconfig_sources sources;
  sources.explicit_path = file;
  (void)sextant::kube::load_kubeconfig(sources);
  (void)sextant::kube::load_kubeconfig(sources, "other");
  std::filesystem::remove(file);  // nothing left behind in the temporary folder
  return 0;
}
