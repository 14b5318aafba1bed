// The integration tests' entry point: Catch2's runner, after checking that the harness exists.
#define CATCH_CONFIG_RUNNER
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string_view>

#include <catch2/catch.hpp>

#include "test_cluster.hpp"

namespace {

bool go_installed() {
  return std::system("command -v go >/dev/null 2>&1") == 0;
}

// Whether an assertion of the running test case failed: a test_cluster keeps its logs then.
bool& failed_flag() {
  static bool failed = false;
  return failed;
}

struct failure_listener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    failed_flag() = false;
    TestEventListenerBase::testCaseStarting(info);
  }
  bool assertionEnded(const Catch::AssertionStats& stats) override {
    failed_flag() = failed_flag() || !stats.assertionResult.isOk();
    return TestEventListenerBase::assertionEnded(stats);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(failure_listener)

namespace sextant::integration {
bool current_test_failed() {
  return failed_flag();
}
}  // namespace sextant::integration

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) {
    listing = listing || std::string_view(argv[i]).starts_with("--list");
  }
  if (!listing && !std::filesystem::exists(SEXTANT_TESTCLUSTER)) {
    if (!go_installed()) {
      std::cerr << "SKIP: Go is not installed and " << SEXTANT_TESTCLUSTER
                << " was not built; the live-cluster integration tests need it\n";
      return 77;
    }
    std::cerr << SEXTANT_TESTCLUSTER << " is missing although Go is installed: run tests/apiserver/build.sh "
              << "(ctest runs it as kube_testcluster_build)\n";
    return 1;
  }
  return Catch::Session().run(argc, argv);
}
