// The memo of cuts decided for a caller (lib/auth/cut_memo.hpp): a caller's list cut is decided
// once and then found in one lookup, and never outlives the decisions it was made from or the
// model it was decided on.
#include "auth/cut_memo.hpp"

#include <catch2/catch.hpp>

using namespace sextant;

namespace {

using steady = std::chrono::steady_clock;

const kind_key memo_pod_kind{"", "Pod"};
const listed_kind memo_pods{memo_pod_kind, "pods", true};

// A caller who may list pods in team-a only; its decisions hold until `until`, and every question
// the cut asks is counted.
struct counted_caller {
  cut_memo memo{std::chrono::minutes(5), 16};
  steady::time_point until = steady::now() + std::chrono::minutes(1);
  int asked = 0;
  std::string user = "alice";
  std::optional<request_access> access;
  std::optional<caller_cuts> cuts;

  // A new request of the caller: its own request_access, with the memo shared across requests.
  caller_cuts& request() {
    cuts.reset();
    access.emplace(
        caller{user, "", {"system:authenticated"}, {}},
        [this](const caller&, const access_check& check) -> std::optional<kept_decision> {
          ++asked;
          return kept_decision(check.namespace_ == "team-a", until);
        },
        &memo);
    cuts.emplace(*access, [](const kind_key&) { return std::string("pods"); });
    return *cuts;
  }
};

std::vector<namespace_run> memo_two_namespaces() {
  return {{"team-a", 0, 2, {}}, {"team-b", 2, 3, {}}};
}

}  // namespace

TEST_CASE("a caller's cut of a list is decided once, then found without asking again", "[auth][cut_memo]") {
  counted_caller who;
  auto model = std::make_shared<const int>(1);
  list_decision first = who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  REQUIRE(first.cut);
  CHECK(first.cut->namespaces == std::set<std::string>{"team-a"});
  CHECK(first.cut->identity == cut_identity(*first.cut));
  const int asked_once = who.asked;
  CHECK(asked_once == 3);  // cluster-wide, then each namespace

  list_decision again = who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  CHECK(who.asked == asked_once);
  REQUIRE(again.cut);
  CHECK(again.cut->namespaces == first.cut->namespaces);
  CHECK(again.cut->identity == first.cut->identity);
  CHECK(again.cut == first.cut);  // the kept cut itself, not a copy made for each request
  CHECK(who.memo.size() == 1);

  // Another namespace asked for is another question, decided on its own.
  list_decision scoped = who.request().list_page(memo_two_namespaces(), memo_pods, std::string("team-b"), model);
  REQUIRE(scoped.refusal);
  CHECK(scoped.refusal->message == "alice may not list pods in team-b");
  CHECK(who.asked > asked_once);
}

TEST_CASE("a kept cut is another caller's never, and not the same caller's on a new model", "[auth][cut_memo]") {
  counted_caller who;
  auto model = std::make_shared<const int>(1);
  who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  const int asked = who.asked;

  who.user = "bob";
  who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  CHECK(who.asked == 2 * asked);

  // A namespace appeared: the model is new, and its cut shows it if the caller may see it.
  who.user = "alice";
  auto newer = std::make_shared<const int>(2);
  std::vector<namespace_run> three = memo_two_namespaces();
  three.push_back({"team-c", 3, 4, {}});
  list_decision decided = who.request().list_page(three, memo_pods, std::nullopt, newer);
  CHECK(who.asked == 3 * asked + 1);
  REQUIRE(decided.cut);
  CHECK(decided.cut->namespaces == std::set<std::string>{"team-a"});
}

TEST_CASE("a model gone is never mistaken for a new one at its address", "[auth][cut_memo]") {
  cut_memo memo(std::chrono::minutes(5), 16);
  const auto now = steady::now();
  auto model = std::make_shared<const int>(1);
  const void* address = model.get();
  memo.keep("k", model, list_decision{}, now, now + std::chrono::minutes(1));
  REQUIRE(memo.find("k", address, now) != nullptr);
  model.reset();
  CHECK(memo.find("k", address, now) == nullptr);
}

TEST_CASE("a kept cut ends when the first decision it was made from ends", "[auth][cut_memo]") {
  counted_caller who;
  auto model = std::make_shared<const int>(1);
  who.until = steady::now() + std::chrono::milliseconds(30);
  who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  const int asked = who.asked;
  who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  CHECK(who.asked == asked);
  while (steady::now() < who.until) {
  }
  who.until = steady::now() + std::chrono::minutes(1);
  who.request().list_page(memo_two_namespaces(), memo_pods, std::nullopt, model);
  CHECK(who.asked == 2 * asked);
}

TEST_CASE("a cut waiting for a decision, or decided from one that has ended, is not kept", "[auth][cut_memo]") {
  cut_memo memo(std::chrono::minutes(5), 16);
  const auto now = steady::now();
  auto model = std::make_shared<const int>(1);
  memo.keep("waiting", model, list_decision{cut_refusal{true, {}}, false, nullptr}, now, now + std::chrono::minutes(1));
  CHECK(memo.find("waiting", model.get(), now) == nullptr);
  memo.keep("ended", model, list_decision{}, now, now);
  CHECK(memo.find("ended", model.get(), now) == nullptr);
  CHECK(memo.size() == 0);
}

TEST_CASE("a cut is kept no longer than the memo's longest time", "[auth][cut_memo]") {
  cut_memo memo(std::chrono::milliseconds(20), 16);
  auto model = std::make_shared<const int>(1);
  const auto now = steady::now();
  memo.keep("k", model, list_decision{}, now, steady::time_point::max());
  CHECK(memo.find("k", model.get(), now) != nullptr);
  CHECK(memo.find("k", model.get(), now + std::chrono::milliseconds(21)) == nullptr);
}

TEST_CASE("the memo holds no more than its bytes, the oldest cuts going first", "[auth][cut_memo]") {
  cut_memo memo(std::chrono::minutes(5), 1000, 8192);
  const auto now = steady::now();
  auto model = std::make_shared<const int>(1);
  auto cut_of = [](int namespaces) {
    list_cut cut;
    cut.filtered = true;
    cut.namespaces.emplace();
    for (int i = 0; i < namespaces; ++i) {
      cut.namespaces->insert("namespace-" + std::to_string(i));
    }
    return list_decision{std::nullopt, false, std::make_shared<const list_cut>(std::move(cut))};
  };
  for (int i = 0; i < 50; ++i) {
    memo.keep("k" + std::to_string(i), model, cut_of(20), now, now + std::chrono::minutes(1));
    CHECK(memo.bytes() <= 8192);
  }
  CHECK(memo.size() < 50);
  CHECK(memo.find("k49", model.get(), now) != nullptr);
  CHECK(memo.find("k0", model.get(), now) == nullptr);

  // A cut heavier than the whole budget is decided again each time, never kept.
  memo.keep("huge", model, cut_of(1000), now, now + std::chrono::minutes(1));
  CHECK(memo.find("huge", model.get(), now) == nullptr);
  CHECK(memo.find("k49", model.get(), now) != nullptr);
}
