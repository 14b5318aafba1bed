#include "kube/reflector_transitions.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <stdexcept>
#include <vector>

using namespace sextant;
using namespace sextant::kube;
using namespace sextant::kube::reflection;

// Each row: a state, what its step came to, the state that follows and what the loop does
// besides. The rows are what the reflector did before its states carried their data (two
// enums and member flags); reflector_test.cpp checks the same through the loop and a store.
namespace {

using happening = outcome::kind;

// A stream that is never read: the transitions only carry it.
struct unread_stream final : watch_stream {
  net::awaitable<watch_item> next() override { co_return watch_item{}; }
};

std::string plan_in_words(const list_plan& plan) {
  return std::string("list") + (plan.streaming ? " streaming" : "");
}

std::string state_in_words(const state& current) {
  if (const auto* now = std::get_if<empty>(&current)) {
    return "empty(" + plan_in_words(now->plan) + (now->relist ? ", relist" : "") + (now->rewatch ? ", rewatch" : "") +
           ")";
  }
  if (const auto* now = std::get_if<listed>(&current)) {
    return "listed(" + plan_in_words(now->plan) + (now->rewatch ? ", rewatch" : "") + ")";
  }
  if (const auto* now = std::get_if<watching>(&current)) {
    return "watching(" + plan_in_words(now->plan) + (now->stream ? ", stream" : ", no stream") + ")";
  }
  if (const auto* now = std::get_if<backing_off>(&current)) {
    return "backing off, then " + std::visit([](const auto& then) { return state_in_words(state{then}); }, now->then);
  }
  return "stopped";
}

std::string effects_in_words(const effects& effect) {
  std::string words;
  auto add = [&](bool yes, const std::string& word) {
    if (yes) {
      words += (words.empty() ? "" : ", ") + word;
    }
  };
  add(effect.synced, "synced");
  add(effect.relist_gone, "relist gone");
  add(effect.unreadable, "unreadable");
  add(effect.not_found, "not found");
  add(!effect.failed_in.empty(), "failed in " + std::string(effect.failed_in));
  return words.empty() ? "none" : words;
}

list_plan plan_from(bool streaming = false) {
  return list_plan{streaming};
}

outcome outcome_of(happening what, int code = 0, bool with_stream = false) {
  outcome out{what, api_error{code, "Reason", "message"}, nullptr};
  if (with_stream) {
    out.stream = std::make_unique<unread_stream>();
  }
  return out;
}

struct transition_row {
  std::function<state()> start;
  happening what;
  int code;
  bool with_stream;
  std::string next;
  std::string effect;
};

void walk_rows(const std::vector<transition_row>& rows) {
  for (const transition_row& row : rows) {
    const std::string from = state_in_words(row.start());
    INFO(from << " + outcome " << static_cast<int>(row.what) << " (code " << row.code << ")");
    transition after = next_step(row.start(), outcome_of(row.what, row.code, row.with_stream));
    CHECK(state_in_words(after.next) == row.next);
    CHECK(effects_in_words(after.effect) == row.effect);
  }
}

state first_list() {
  return first_state(false);
}
state relist_from(bool rewatch = false) {
  return empty{plan_from(), true, rewatch};
}
state listed_from(bool rewatch = false) {
  return listed{plan_from(), rewatch};
}
state watching_from() {
  return watching{plan_from(), std::make_unique<unread_stream>()};
}

}  // namespace

TEST_CASE("the first state lists, streaming if asked", "[kube][reflector][transitions]") {
  CHECK(state_in_words(first_state(false)) == "empty(list)");
  CHECK(state_in_words(first_state(true)) == "empty(list streaming)");
}

TEST_CASE("after a list: watch, relist from the latest, or back off and list again", "[kube][reflector][transitions]") {
  walk_rows({
      {first_list, happening::listed, 0, false, "listed(list)", "synced"},
      // A streaming list goes on as the watch it was.
      {[] { return first_state(true); }, happening::listed, 0, true, "watching(list streaming, stream)", "synced"},
      // The server refused the streaming list: pages at once, no backoff, no error kept.
      {[] { return first_state(true); }, happening::streaming_unsupported, 422, false, "empty(list, relist)", "none"},
      // 410: the version or a continue token expired; list again at once.
      {first_list, happening::list_failed, 410, false, "empty(list, relist)", "relist gone"},
      // 403: the kind is unreadable; list again after the backoff (RBAC may be fixed).
      {first_list, happening::list_failed, 403, false, "backing off, then empty(list, relist)",
       "unreadable, failed in list"},
      {first_list, happening::list_failed, 404, false, "backing off, then empty(list, relist)",
       "not found, failed in list"},
      {first_list, happening::list_failed, 500, false, "backing off, then empty(list, relist)", "failed in list"},
      {first_list, happening::list_failed, 0, false, "backing off, then empty(list, relist)", "failed in list"},
      // A relist that fails backs off like the first list.
      {[] { return relist_from(); }, happening::list_failed, 503, false, "backing off, then empty(list, relist)",
       "failed in list"},
      // The watch after a list that followed a broken watch is a re-watch.
      {[] { return relist_from(true); }, happening::listed, 0, false, "listed(list, rewatch)", "synced"},
      {[] { return relist_from(true); }, happening::list_failed, 500, false,
       "backing off, then empty(list, relist, rewatch)", "failed in list"},
  });
}

TEST_CASE("after opening a watch: read it, relist on 410, list again after a 403, else back off",
          "[kube][reflector][transitions]") {
  walk_rows({
      {[] { return listed_from(); }, happening::watch_opened, 0, true, "watching(list, stream)", "none"},
      {[] { return listed_from(); }, happening::watch_refused, 410, false, "empty(list, relist, rewatch)",
       "relist gone"},
      // The 403 emptied the kind as unreadable: once allowed, it is listed again.
      {[] { return listed_from(); }, happening::watch_refused, 403, false,
       "backing off, then empty(list, relist, rewatch)", "unreadable, failed in watch"},
      {[] { return listed_from(); }, happening::watch_refused, 404, false, "backing off, then listed(list, rewatch)",
       "not found, failed in watch"},
      {[] { return listed_from(); }, happening::watch_refused, 503, false, "backing off, then listed(list, rewatch)",
       "failed in watch"},
      {[] { return listed_from(); }, happening::watch_refused, 0, false, "backing off, then listed(list, rewatch)",
       "failed in watch"},
  });
}

TEST_CASE("after reading a watch: re-watch at once on a clean end, relist on 410, else back off",
          "[kube][reflector][transitions]") {
  walk_rows({
      // The server's timeout: not a restart.
      {[] { return watching_from(); }, happening::watch_closed, 0, false, "listed(list)", "none"},
      {[] { return watching_from(); }, happening::watch_error_event, 410, false, "empty(list, relist, rewatch)",
       "relist gone"},
      // An ERROR event with 403 makes the kind unreadable and, as a refused watch, lists again
      // after the backoff.
      {[] { return watching_from(); }, happening::watch_error_event, 403, false,
       "backing off, then empty(list, relist, rewatch)", "unreadable, failed in watch"},
      {[] { return watching_from(); }, happening::watch_error_event, 404, false,
       "backing off, then listed(list, rewatch)", "not found, failed in watch"},
      {[] { return watching_from(); }, happening::watch_error_event, 500, false,
       "backing off, then listed(list, rewatch)", "failed in watch"},
      // A broken or silent connection has no status to read: whatever its code, back off.
      {[] { return watching_from(); }, happening::watch_broken, 0, false, "backing off, then listed(list, rewatch)",
       "failed in watch"},
      {[] { return watching_from(); }, happening::watch_broken, 403, false, "backing off, then listed(list, rewatch)",
       "failed in watch"},
  });
}

TEST_CASE("after a backoff the loop goes on as it was told", "[kube][reflector][transitions]") {
  walk_rows({
      {[] {
         return backing_off{empty{plan_from(), true, true}};
       },
       happening::waited, 0, false, "empty(list, relist, rewatch)", "none"},
      {[] {
         return backing_off{listed{plan_from(), true}};
       },
       happening::waited, 0, false, "listed(list, rewatch)", "none"},
  });
}

TEST_CASE("a stop in any state stops the loop", "[kube][reflector][transitions]") {
  walk_rows({
      {first_list, happening::stopped, 0, false, "stopped", "none"},
      {[] { return listed_from(); }, happening::stopped, 0, false, "stopped", "none"},
      {[] { return watching_from(); }, happening::stopped, 0, false, "stopped", "none"},
      {[] {
         return backing_off{listed{plan_from(), true}};
       },
       happening::stopped, 0, false, "stopped", "none"},
      {[] { return stopped{}; }, happening::stopped, 0, false, "stopped", "none"},
      // A step that ended as the stop came: what it came to no longer matters.
      {[] { return stopped{}; }, happening::listed, 0, false, "stopped", "none"},
  });
}

TEST_CASE("an outcome no step of the state can have is a defect of the loop", "[kube][reflector][transitions]") {
  CHECK_THROWS_AS(next_step(first_list(), outcome_of(happening::watch_opened, 0, true)), std::logic_error);
  CHECK_THROWS_AS(next_step(listed_from(), outcome_of(happening::listed)), std::logic_error);
  CHECK_THROWS_AS(next_step(watching_from(), outcome_of(happening::waited)), std::logic_error);
  CHECK_THROWS_AS(next_step(backing_off{listed{plan_from(), true}}, outcome_of(happening::watch_closed)),
                  std::logic_error);
}

TEST_CASE("the stream a watch opened with is the one the watching state reads", "[kube][reflector][transitions]") {
  outcome opened = outcome_of(happening::watch_opened, 0, true);
  const watch_stream* handed = opened.stream.get();
  transition after = next_step(listed_from(), std::move(opened));
  REQUIRE(std::holds_alternative<watching>(after.next));
  CHECK(std::get<watching>(after.next).stream.get() == handed);
}

TEST_CASE("a loop that threw starts over with a list, keeping what it learned", "[kube][reflector][transitions]") {
  CHECK(state_in_words(start_over(first_list())) == "empty(list)");
  CHECK(state_in_words(start_over(relist_from(true))) == "empty(list, relist, rewatch)");
  CHECK(state_in_words(start_over(listed_from())) == "empty(list, relist)");
  CHECK(state_in_words(start_over(watching_from())) == "empty(list, relist, rewatch)");
  CHECK(state_in_words(start_over(backing_off{listed{plan_from(), true}})) == "empty(list, relist, rewatch)");
  CHECK(state_in_words(start_over(stopped{})) == "stopped");
}
