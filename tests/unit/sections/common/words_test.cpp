// The toolkit's sentences: where a sentence ends, an operator's message made one, sentences
// joined, and a problem's message. Every section uses these, so they end messages alike.
#include "sections/common/words.hpp"

#include <catch2/catch.hpp>

using namespace sextant;

TEST_CASE("a sentence ends in a full stop, ! or ?, also inside closing brackets and quotes", "[toolkit][words]") {
  CHECK(ends_sentence("Ready."));
  CHECK(ends_sentence("Ready!"));
  CHECK(ends_sentence("Ready?"));
  CHECK(ends_sentence("failed (see the log.)"));
  CHECK(ends_sentence("it said \"stop.\""));
  CHECK(ends_sentence("Ready.  "));
  // A closing bracket alone ends nothing: the words inside are a remark, not a sentence.
  CHECK_FALSE(ends_sentence("AccessDenied (credentials and query hidden)"));
  CHECK_FALSE(ends_sentence("failed with [exit code 1]"));
  CHECK_FALSE(ends_sentence("Ready"));
  CHECK_FALSE(ends_sentence(""));
  CHECK_FALSE(ends_sentence(")"));
}

TEST_CASE("an operator's message is made a sentence without changing its words", "[toolkit][words]") {
  CHECK(as_sentence("waiting for runtime") == "waiting for runtime.");
  CHECK(as_sentence("Waiting for runtime.") == "Waiting for runtime.");
  CHECK(as_sentence("AccessDenied (credentials and query hidden)") == "AccessDenied (credentials and query hidden).");
  CHECK(as_sentence("done (see the log.)") == "done (see the log.)");
  CHECK(as_sentence("trailing space \n") == "trailing space.");
  CHECK(as_sentence("") == "");
  CHECK(as_sentence("  ") == "");
  CHECK(capitalized_sentence("claim gpu does not exist") == "Claim gpu does not exist.");
  CHECK(capitalized_sentence("Claim gpu does not exist.") == "Claim gpu does not exist.");
  CHECK(capitalized_sentence("") == "");
}

TEST_CASE("sentences are joined with the first one ended", "[toolkit][words]") {
  std::string text;
  add_sentence(text, "The Ray pods are being created.");
  CHECK(text == "The Ray pods are being created.");
  add_sentence(text, "The head is not ready.");
  CHECK(text == "The Ray pods are being created. The head is not ready.");
  std::string unended = "Can't admit new workloads: is stopped";
  add_sentence(unended, "It stays inactive.");
  CHECK(unended == "Can't admit new workloads: is stopped. It stays inactive.");
  std::string none = "kept";
  add_sentence(none, "");
  CHECK(none == "kept.");
}

TEST_CASE("a problem's message names the reason and quotes the state's message as a sentence", "[toolkit][words]") {
  CHECK(problem_message("JobSet failed", {"Failed", "BackoffLimitExceeded", "jobset failed"}) ==
        "JobSet failed (BackoffLimitExceeded): jobset failed.");
  CHECK(problem_message("Ray Cluster failed", {"Failed", "", "head crashed."}) == "Ray Cluster failed: head crashed.");
  CHECK(problem_message("NVIDIA Driver not ready", {"Not ready", "Upgrading", ""}) ==
        "NVIDIA Driver not ready (Upgrading).");
  CHECK(problem_message("Inference Service not ready", {"Not ready", "", ""}) == "Inference Service not ready.");
  CHECK(
      problem_message("The model failed to load", {"Failed", "ModelLoadFailed", "AccessDenied (credentials hidden)"}) ==
      "The model failed to load (ModelLoadFailed): AccessDenied (credentials hidden).");
}
