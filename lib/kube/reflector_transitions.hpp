#pragma once
// What a reflector does next, decided apart from doing it. As in kube-rs' watcher, each state
// holds the data it needs: a list to make, a watch to open, a watch to read, a backoff to wait
// out. reflector.cpp lists, watches and waits; after each step it hands the state and what
// happened to `next_step` and performs the effects that come back. Nothing here touches a
// store, the network or a clock, so every transition is a row of a table test
// (tests/unit/kube/reflector_transitions_test.cpp).
//
// The version a watch resumes from is not in the states: every event moves it and it is read
// in any state (reflector::resource_version()), so the reflector keeps it.
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "kube/api_status.hpp"
#include "kube/lister_watcher.hpp"

namespace sextant::kube::reflection {

// How the next list reads; every state carries it, since any of them can lead to a list.
struct list_plan {
  // A streaming list (a watch with sendInitialEvents); off for good once the server refuses one.
  bool streaming = false;
};

// No version is current: list.
struct empty {
  list_plan plan;
  bool relist = false;   // not the first list (counted: sextant_watch_list_restarts_total)
  bool rewatch = false;  // the watch after this list re-opens one that broke (counted)
};

// A list is in, or a watch ended cleanly: open a watch from the last version seen.
struct listed {
  list_plan plan;
  bool rewatch = false;  // re-opens a watch that broke (sextant_watch_restarts_total)
};

// A watch is open: read its events.
struct watching {
  list_plan plan;
  std::unique_ptr<watch_stream> stream;
};

// Wait out the backoff, then go on as `then`.
struct backing_off {
  std::variant<empty, listed> then;
};

struct stopped {};

using state = std::variant<empty, listed, watching, backing_off, stopped>;

// What the step a state asked for came to.
struct outcome {
  enum class kind {
    listed,                 // the list is in the store; a streaming list hands on its `stream`
    list_failed,            // `error`
    streaming_unsupported,  // the server refused a streaming list (`error`): list in pages
    watch_opened,           // `stream`
    watch_refused,          // `error`
    watch_closed,           // the server ended the watch (its timeout)
    watch_error_event,      // an ERROR event in the stream: `error`
    watch_broken,           // the connection broke or went silent: `error`
    waited,                 // the backoff is over
    stopped,                // stop() was called
  };
  kind what = kind::stopped;
  api_error error;
  std::unique_ptr<watch_stream> stream;
};

// What the loop does besides moving to the next state.
struct effects {
  bool synced = false;         // a complete list is in: the kind is synced
  bool relist_gone = false;    // a 410: count the relist (sextant_watch_relists_gone_total)
  bool unreadable = false;     // a 403: empty the kind and say it is forbidden
  bool not_found = false;      // a 404: the resource is gone, discovery should look again
  std::string_view failed_in;  // "list" or "watch": keep the error as the last one; else empty
};

struct transition {
  state next;
  effects effect;
};

// The first state: a list, streaming if the server was said to support it.
state first_state(bool streaming_list);

// The state after `happened` in `current`. An outcome that no step of `current` can have
// (a watch opened while listing) is a defect of the loop: std::logic_error.
transition next_step(state current, outcome happened);

// Where a loop that threw starts again: a fresh list with what the states had learned (the list
// plan, whether this is a relist); a watch that was open counts as broken.
state start_over(state current);

}  // namespace sextant::kube::reflection
