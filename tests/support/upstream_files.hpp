#pragma once
// Upstream data files the tests read (operators' CRDs, k8s.io/api's round-trip test data), from
// the Go modules tests/upstream/go.mod pins: tests/upstream/fetch.sh downloads the module at its
// pinned version once (go.sum verifies it) and keeps the files in a cached folder.
#include <filesystem>
#include <string>
#include <vector>

namespace sextant::testing {

// The folder of one set, e.g. "crds/kueue", "crds/jobset", "crds/training-operator",
// "crds/lws", "testdata/k8s-api-resource" (`tests/upstream/fetch.sh --list` names them all).
// Throws std::runtime_error with fetch.sh's own words when it cannot be had.
std::filesystem::path upstream_files(const std::string& name);

// Every name fetch.sh knows that starts with `prefix` ("crds/" for every operator's CRDs).
std::vector<std::string> upstream_file_sets(const std::string& prefix);

}  // namespace sextant::testing
