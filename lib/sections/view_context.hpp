#pragma once
// What an interpreter may read: the cache, what the cluster serves, documents read beside the
// cache (live mode only), and the time.
#include <functional>
#include <optional>
#include <string>

#include "sections/readings_memo.hpp"
#include "store/object_store.hpp"
#include "store/polled_documents.hpp"
#include "store/served_kinds.hpp"
#include "store/view_reads.hpp"
#include "util/time.hpp"

namespace sextant {

// The instant a view is rendered at. It reads as a time_point; reading it is noted in the
// render's view_reads, so that a cached view whose output depends on the time is rendered again
// as time passes, and one that never looks at the clock is kept until what it read changes.
class view_clock {
 public:
  view_clock() = default;
  view_clock(time_point at) : at_(at) {}  // NOLINT(google-explicit-constructor): reads as a time
  view_clock& operator=(time_point at) {
    at_ = at;
    return *this;
  }
  operator time_point() const {  // NOLINT(google-explicit-constructor)
    if (reads_ != nullptr) {
      reads_->clock = true;
    }
    return at_;
  }
  // Where reads are noted (null: nowhere); the renderer sets it.
  void record_into(view_reads* reads) { reads_ = reads; }

  friend auto operator<=>(const view_clock& a, time_point b) { return time_point(a) <=> b; }
  friend bool operator==(const view_clock& a, time_point b) { return time_point(a) == b; }
  friend auto operator-(const view_clock& a, time_point b) { return time_point(a) - b; }
  friend auto operator-(time_point a, const view_clock& b) { return a - time_point(b); }
  template <class Rep, class Period>
  friend time_point operator-(const view_clock& a, std::chrono::duration<Rep, Period> by) {
    return time_point(a) - by;
  }
  template <class Rep, class Period>
  friend time_point operator+(const view_clock& a, std::chrono::duration<Rep, Period> by) {
    return time_point(a) + by;
  }

 private:
  time_point at_{};
  view_reads* reads_ = nullptr;
};

struct view_context {
  const object_store& store;
  const served_kinds& served;
  view_clock now;
  // The API path of an object of a kind, or nullopt when no served resource shows that kind.
  std::function<std::optional<std::string>(const kind_key&, std::string_view namespace_, std::string_view name)>
      path_for;

  // The version the daemon reads a kind in (the version its section prefers among those the
  // cluster serves); links name it. Unset in contexts made by hand: then the server's preferred.
  std::function<std::string(const kind_key&)> version_for;

  // Documents a section polls (section::documents); null in snapshot mode and in tests that
  // give none.
  const polled_documents* documents = nullptr;
  // Set while a view renders for the cache: documents asked for are noted here.
  view_reads* reads = nullptr;
  // Set while a view renders for callers who may not read everything (--auth=kubernetes): the
  // path of a joined object is written marked, so each caller's answer can hide the entries it
  // may not read (auth/join_marks.hpp). The router strips the marks before anything is served.
  bool mark_joins = false;
  // Set while one object renders: the readings its state, summary and details share (read_once).
  // Mutable: the renderer points a context it was lent at one object's memo for that render
  // (readings_scope), without copying the context for every object of a list.
  mutable readings_memo* readings = nullptr;

  // The path as JSON: a string, or null. `joined`: the path names another object than the one
  // the view is of, so the JSON object holding it is that object's entry (see mark_joins).
  json path_json(const kind_key& type, std::string_view namespace_, std::string_view name, bool joined = true) const;
  // The apiVersion a link to a kind names: "resource.k8s.io/v1", "v1".
  std::string api_version(const kind_key& type) const;
  // The newest read of a polled document, or null when there is none (yet). Asking makes the
  // live source read it from now on, for as long as somebody keeps asking.
  const polled_document_entry* document(const document_key& key) const;
  // Why document(key) is null: the failure of its last read or of its API; empty when it is
  // simply not read yet, and when documents are not read at all (snapshot mode).
  std::string document_missing_because(const document_key& key) const;
};

// Gives one object's render a memo of its readings, unless the render it is part of has one
// (details render the summary inside them), and takes it away after.
class readings_scope {
 public:
  explicit readings_scope(const view_context& context) : context_(context), outer_(context.readings) {
    if (outer_ == nullptr) {
      context_.readings = &memo_;
    }
  }
  ~readings_scope() { context_.readings = outer_; }
  readings_scope(const readings_scope&) = delete;
  readings_scope& operator=(const readings_scope&) = delete;

 private:
  const view_context& context_;
  readings_memo* outer_;
  readings_memo memo_;
};

}  // namespace sextant
