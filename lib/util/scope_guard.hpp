#pragma once
// Undoes per-connection or per-pass state when the scope that set it is left by an exception:
// a "running" flag, a connection's slot, a count a waiter watches. A normal exit does its own
// bookkeeping; a throw must not leave the state set for ever.
//
// Only an exception triggers it, never the destruction of a suspended coroutine's frame when
// its io_context goes away after the objects the undo would touch.
#include <exception>
#include <utility>

namespace sextant {

template <typename Undo>
class undo_on_exception {
 public:
  explicit undo_on_exception(Undo undo) : undo_(std::move(undo)) {}
  ~undo_on_exception() {
    if (armed_ && std::uncaught_exceptions() > exceptions_) {
      undo_();
    }
  }
  undo_on_exception(const undo_on_exception&) = delete;
  undo_on_exception& operator=(const undo_on_exception&) = delete;
  // The state was undone by the normal path: nothing left to do.
  void disarm() { armed_ = false; }

 private:
  Undo undo_;
  int exceptions_ = std::uncaught_exceptions();
  bool armed_ = true;
};

}  // namespace sextant
