#include "kube/reflector_transitions.hpp"

#include <stdexcept>

namespace sextant::kube::reflection {

namespace {

using kind = outcome::kind;

[[noreturn]] void not_a_step_of(const char* state_name, kind what) {
  throw std::logic_error("reflector: outcome " + std::to_string(static_cast<int>(what)) + " cannot follow the state " +
                         state_name);
}

// A refusal the server answered: keep it as the last error; a 403 and a 404 say more than
// "try again".
effects refusal_effects(const api_error& error, std::string_view during) {
  effects out;
  out.failed_in = during;
  out.unreadable = error.code == 403;
  out.not_found = error.code == 404;
  return out;
}

effects list_in() {
  effects out;
  out.synced = true;
  return out;
}

effects version_gone() {
  effects out;
  out.relist_gone = true;
  return out;
}

// No answer from the server to read a 403 or a 404 from: only note the failure.
effects broken_watch() {
  effects out;
  out.failed_in = "watch";
  return out;
}

transition after_list(empty current, outcome happened) {
  switch (happened.what) {
    case kind::listed:
      if (happened.stream) {
        // A streaming list goes on as the watch it was.
        return {watching{std::move(current.plan), std::move(happened.stream)}, list_in()};
      }
      return {listed{std::move(current.plan), current.rewatch}, list_in()};
    case kind::streaming_unsupported:
      // Not a failure: list in pages at once.
      current.plan.streaming = false;
      return {empty{std::move(current.plan), true, current.rewatch}, {}};
    case kind::list_failed:
      if (happened.error.gone()) {
        // The version, or a continue token, expired.
        return {empty{std::move(current.plan), true, current.rewatch}, version_gone()};
      }
      return {backing_off{empty{std::move(current.plan), true, current.rewatch}},
              refusal_effects(happened.error, "list")};
    default:
      not_a_step_of("empty", happened.what);
  }
}

transition after_watch_open(listed current, outcome happened) {
  switch (happened.what) {
    case kind::watch_opened:
      return {watching{std::move(current.plan), std::move(happened.stream)}, {}};
    case kind::watch_refused:
      if (happened.error.gone()) {
        return {empty{std::move(current.plan), true, true}, version_gone()};
      }
      if (happened.error.code == 403) {
        // The kind was emptied as unreadable: once allowed, it must be listed again.
        return {backing_off{empty{std::move(current.plan), true, true}}, refusal_effects(happened.error, "watch")};
      }
      return {backing_off{listed{std::move(current.plan), true}}, refusal_effects(happened.error, "watch")};
    default:
      not_a_step_of("listed", happened.what);
  }
}

transition after_watch_read(watching current, outcome happened) {
  switch (happened.what) {
    case kind::watch_closed:
      // The server's timeout, not a break: watch again at once.
      return {listed{std::move(current.plan), false}, {}};
    case kind::watch_error_event:
      if (happened.error.gone()) {
        return {empty{std::move(current.plan), true, true}, version_gone()};
      }
      if (happened.error.code == 403) {
        // As for a refused watch: the kind was emptied as unreadable, so once allowed it is
        // listed again. A re-watch alone would bring only later changes and leave the kind
        // empty and "forbidden" while events flowed.
        return {backing_off{empty{std::move(current.plan), true, true}}, refusal_effects(happened.error, "watch")};
      }
      return {backing_off{listed{std::move(current.plan), true}}, refusal_effects(happened.error, "watch")};
    case kind::watch_broken:
      return {backing_off{listed{std::move(current.plan), true}}, broken_watch()};
    default:
      not_a_step_of("watching", happened.what);
  }
}

transition after_wait(backing_off current, outcome happened) {
  if (happened.what != kind::waited) {
    not_a_step_of("backing_off", happened.what);
  }
  return {std::visit([](auto& then) -> state { return std::move(then); }, current.then), {}};
}

}  // namespace

state first_state(bool streaming_list) {
  return empty{list_plan{streaming_list}, false, false};
}

transition next_step(state current, outcome happened) {
  if (happened.what == kind::stopped || std::holds_alternative<stopped>(current)) {
    return {stopped{}, {}};  // nothing follows a stop
  }
  if (auto* now = std::get_if<empty>(&current)) {
    return after_list(std::move(*now), std::move(happened));
  }
  if (auto* now = std::get_if<listed>(&current)) {
    return after_watch_open(std::move(*now), std::move(happened));
  }
  if (auto* now = std::get_if<watching>(&current)) {
    return after_watch_read(std::move(*now), std::move(happened));
  }
  return after_wait(std::move(std::get<backing_off>(current)), std::move(happened));
}

state start_over(state current) {
  if (auto* now = std::get_if<listed>(&current)) {
    return empty{std::move(now->plan), true, now->rewatch};
  }
  if (auto* now = std::get_if<watching>(&current)) {
    return empty{std::move(now->plan), true, true};
  }
  if (auto* now = std::get_if<backing_off>(&current)) {
    return start_over(std::visit([](auto& then) -> state { return std::move(then); }, now->then));
  }
  return current;  // empty: list as planned; stopped: stays stopped
}

}  // namespace sextant::kube::reflection
