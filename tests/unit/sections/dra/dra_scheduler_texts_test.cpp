// Every DRA text kube-scheduler v1.37.2 (and k8s.io/dynamic-resource-allocation v0.37.2, the
// versions tests/apiserver/go.mod pins) writes into a pod's PodScheduled message is recognised,
// as written on its own, inside the "0/N nodes are available" histogram, and wrapped the way
// the framework wraps a PreBind error. The texts are pinned in tests/fixtures/dra/
// scheduler-texts.tsv with the upstream file and line of each; a version bump that rewords one
// shows up there as a diff (tests/apiserver/scheduler_texts.sh checks them against the modules).
#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "sections/dra/scheduler_reasons.hpp"

using namespace sextant;
using sextant::dra::recognise_scheduler_message;

namespace {

struct pinned_text {
  std::string id;
  std::string module;
  std::string place;
  std::string format;  // as it reaches the message
};

std::vector<pinned_text> pinned_texts() {
  std::ifstream in(std::string(SEXTANT_SOURCE_DIR) + "/tests/fixtures/dra/scheduler-texts.tsv");
  std::vector<pinned_text> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') {
      continue;
    }
    std::vector<std::string> fields;
    std::stringstream columns(line);
    for (std::string field; std::getline(columns, field, '\t');) {
      fields.push_back(field);
    }
    REQUIRE(fields.size() == 5);
    out.push_back({fields[0], fields[1], fields[2], fields[4] == "=" ? fields[3] : fields[4]});
  }
  return out;
}

// Fills a Go format string the way the scheduler's values would: names for %s, a number for
// %d, a %q-quoted text with quotes inside it, and an error's words for %v and %w.
std::string filled(const std::string& format) {
  std::string out;
  int arguments = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%' || i + 1 == format.size()) {
      out += format[i];
      continue;
    }
    ++arguments;
    switch (format[++i]) {
      case 's':
        out += "name-" + std::to_string(arguments);
        break;
      case 'd':
        out += "3";
        break;
      case 'q':
        out += R"("port \"nvl3\" is down")";
        break;
      case 'v':
      case 'w':
        out += "context deadline exceeded";
        break;
      default:
        out += format.substr(i - 1, 2);
    }
  }
  return out;
}

std::vector<std::string> ids_of(const std::string& message) {
  std::vector<std::string> ids;
  for (const dra::dra_reason& reason : recognise_scheduler_message(message).reasons) {
    ids.push_back(reason.id);
  }
  return ids;
}

}  // namespace

TEST_CASE("every pinned scheduler text is recognised alone, in the histogram and wrapped by PreBind",
          "[dra][scheduler]") {
  const std::vector<pinned_text> texts = pinned_texts();
  REQUIRE(texts.size() >= 60);
  std::set<std::string> ids;
  for (const pinned_text& text : texts) {
    const std::string words = filled(text.format);
    INFO(text.module << " " << text.place << ": " << words);
    ids.insert(text.id);
    for (const std::string& message :
         {words, "0/4 nodes are available: 3 " + words + ", 1 node(s) had untolerated taint {gpu: true}.",
          "running PreBind plugin \"DynamicResources\": " + words}) {
      INFO(message);
      auto reading = recognise_scheduler_message(message);
      REQUIRE(reading.reasons.size() == 1);
      const dra::dra_reason& reason = reading.reasons.front();
      CHECK(reason.id == text.id);
      CHECK(reason.source == "scheduler");
      CHECK_FALSE(reason.text.empty());
      CHECK(reason.text.find('{') == std::string::npos);  // no placeholder left
      CHECK(message.find(reason.fragment) != std::string::npos);
    }
  }
  // The spec's four named reasons are among them.
  for (const char* named : {"cannot-allocate", "claim-not-created", "device-class-missing", "claim-in-use"}) {
    CHECK(ids.contains(named));
  }
}

TEST_CASE("the 1.37 PreBind binding timeout, without a claim, is recognised", "[dra][scheduler]") {
  // dynamicresources.go:1733: PreBind's own wait ends with the context's error, wrapped by the
  // framework (pkg/scheduler/framework/runtime/framework.go:1804).
  auto reading = recognise_scheduler_message(
      "running PreBind plugin \"DynamicResources\": device binding timeout: context deadline exceeded");
  REQUIRE(reading.reasons.size() == 1);
  CHECK(reading.reasons[0].id == "binding-timeout");
  CHECK(reading.reasons[0].claim.empty());
  CHECK_THAT(reading.reasons[0].text, Catch::StartsWith("An allocated device did not become ready in time"));
}

TEST_CASE("a driver's binding-failure message quoted with %q is read whole, its escapes undone", "[dra][scheduler]") {
  // dynamicresources.go:2013 quotes the driver's condition message with %q.
  auto reading = recognise_scheduler_message(
      R"x(running PreBind plugin "DynamicResources": device binding failed: claim=pod0-gpu-x1, reason=FabricDown, )x"
      R"x(message="port \"nvl3\" is down\n(switch \\sw1)")x");
  REQUIRE(reading.reasons.size() == 1);
  const dra::dra_reason& reason = reading.reasons[0];
  CHECK(reason.id == "binding-failed");
  CHECK(reason.claim == "pod0-gpu-x1");
  CHECK(reason.text ==
        "The driver reported that binding the device of claim pod0-gpu-x1 failed (FabricDown: port \"nvl3\" is "
        "down\n(switch \\sw1)).");
  CHECK_THAT(reason.fragment, Catch::EndsWith(R"x((switch \\sw1)")x"));
}

TEST_CASE("a pod claim named with %q has its quotes undone", "[dra][scheduler]") {
  auto reading = recognise_scheduler_message(
      R"(pod "ml/trainer-0", spec.resourceClaim "gpu": none of the supported fields are set)");
  REQUIRE(reading.reasons.size() == 1);
  CHECK(reading.reasons[0].text == "Pod claim gpu names neither a claim nor a template.");
}

TEST_CASE("the claim tracker's not-found text names the claim without its namespace", "[dra][scheduler]") {
  // pkg/scheduler/util/assumecache/assume_cache.go:82, the ResourceClaim cache of scheduler.go.
  auto reading =
      recognise_scheduler_message(R"(0/3 nodes are available: could not find ResourceClaim "ml/shared-gpu".)");
  REQUIRE(reading.reasons.size() == 1);
  CHECK(reading.reasons[0].id == "claim-not-found");
  CHECK(reading.reasons[0].claim == "shared-gpu");
}

TEST_CASE("CEL errors of 1.37 name the class or claim and the device", "[dra][scheduler]") {
  auto by_class = recognise_scheduler_message(
      "class gpu.example.com: selector #0 on device gpu-3: CEL runtime error: no such key: model");
  REQUIRE(by_class.reasons.size() == 1);
  CHECK(by_class.reasons[0].device_class == "gpu.example.com");
  CHECK(by_class.reasons[0].text ==
        "A CEL selector of class gpu.example.com failed when the scheduler ran it on device gpu-3.");
  auto by_claim = recognise_scheduler_message("claim ml/big: selector #1: CEL compile error: undeclared reference");
  REQUIRE(by_claim.reasons.size() == 1);
  CHECK(by_claim.reasons[0].id == "cel-compile-error");
  CHECK(by_claim.reasons[0].claim == "big");
}

TEST_CASE("a scheduling message with a 60 000-character claim name is read in linear time",
          "[dra][scheduler][hostile]") {
  // Issue 32: std::regex recursed per character of `\S+` and overflowed the stack at the first
  // problem evaluation; live, the one Pod crash-looped the daemon.
  const std::string name(60000, 'c');
  for (const std::string& message :
       {"0/3 nodes are available: resource claim ml/" + name + " is in the process of being allocated.",
        "running PreBind plugin \"DynamicResources\": device binding failed: claim=" + name + ", reason=x, message=\"" +
            name + "\"",
        "ResourceClaim ml/" + name + " was not created for Pod ml/p (Pod is not owner)",
        "0/3 nodes are available: " + name}) {
    auto reading = recognise_scheduler_message(message);
    CHECK(reading.reasons.size() <= 1);
  }
  auto allocating = recognise_scheduler_message("0/3 nodes are available: resource claim ml/" + name +
                                                " is in the process of being allocated.");
  REQUIRE(allocating.reasons.size() == 1);
  CHECK(allocating.reasons[0].claim == name);
}

TEST_CASE("only the first 64 KiB of a scheduling message are read", "[dra][scheduler][hostile]") {
  const std::string filler(70 * 1024, 'x');
  CHECK(ids_of("0/3 nodes are available: 3 cannot allocate all claims. " + filler) ==
        std::vector<std::string>{"cannot-allocate"});
  CHECK(ids_of("0/3 nodes are available: " + filler + " 3 cannot allocate all claims.").empty());
}
