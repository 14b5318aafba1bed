#pragma once
// A way to abort whatever a task has in flight from outside it: the owner calls `cancel()`,
// the task's current I/O is closed by the hook it registered, and the task sees `cancelled()`
// at its next step. Used on the event loop only.
#include <functional>

namespace sextant::kube {

class cancel_token {
 public:
  bool cancelled() const { return cancelled_; }
  void cancel() {
    cancelled_ = true;
    if (hook_) {
      auto hook = std::move(hook_);
      hook_ = nullptr;
      hook();
    }
  }
  // What `cancel()` must do now (close the connection in use). Runs at once when already cancelled.
  void set_hook(std::function<void()> hook) {
    if (cancelled_) {
      hook();
      return;
    }
    hook_ = std::move(hook);
  }
  void clear_hook() { hook_ = nullptr; }

 private:
  bool cancelled_ = false;
  std::function<void()> hook_;
};

}  // namespace sextant::kube
