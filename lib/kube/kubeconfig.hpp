#pragma once
// Reads kubeconfig files as kubectl does and resolves one context into a connection_config.
//
// Which files: `--kubeconfig` alone when given; else every file of $KUBECONFIG (':'-joined,
// missing ones skipped) merged so that the first file to name a cluster, user or context, or
// to set current-context, wins; else ~/.kube/config. Relative paths inside a file are taken
// from that file's folder. Files are read once, at startup, on the calling thread.
//
// Errors are values: one sentence that names the file and the field kubectl users would edit.
#include <filesystem>
#include <optional>
#include <string>

#include "kube/connection_config.hpp"

namespace sextant::kube {

// Where kubeconfigs are looked for; the environment is injected so tests need not touch it.
struct kubeconfig_sources {
  std::optional<std::filesystem::path> explicit_path;  // --kubeconfig
  std::optional<std::string> kubeconfig_env;           // $KUBECONFIG, nullopt when unset
  std::filesystem::path home;                          // for ~/.kube/config
};

// The sources the process environment gives ($KUBECONFIG, $HOME).
kubeconfig_sources sources_from_environment(std::optional<std::filesystem::path> explicit_path);

// Resolves `context` (empty: the merged current-context).
config_result load_kubeconfig(const kubeconfig_sources& sources, const std::string& context = {});

}  // namespace sextant::kube
