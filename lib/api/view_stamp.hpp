#pragma once
// The inputs of one rendered view, as generations: while every one is unchanged, the view's
// bytes are the same, so a cached body is served as is and its ETag is derived from the stamp
// rather than from the bytes.
//
// A stamp holds the generation of each kind the render read, of what is served (links and
// paths depend on it), of the polled documents and the problems when it read them, and the
// second it rendered at when it read the clock (a view that shows "waiting 4m 12s" is
// re-rendered each second it is asked for; one that never reads the clock is not).
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/daemon_state.hpp"
#include "store/view_reads.hpp"

namespace sextant {

// The instant views are rendered at: now, to the whole second (the times they write are whole
// seconds), so that a clock-reading view is a function of its stamp.
time_point render_instant(const daemon_state& state);

class view_stamp {
 public:
  view_stamp() = default;
  // What the render read, against the state it read it from; `rendered_at` from
  // render_instant.
  view_stamp(const view_reads& reads, const daemon_state& state, time_point rendered_at);

  // Whether a view rendered with this stamp would render the same bytes now.
  bool current(const daemon_state& state) const;
  // Asks again for what the view read that is read only while views ask for it, as a render
  // would: the polled documents, and the kinds watched on demand (so that serving a view,
  // rendered or cached, keeps what it shows watched). Called after each render and each hit.
  void ask_again(const daemon_state& state) const;
  // A digest of the stamp, for ETags and continue tokens.
  std::uint64_t digest() const;
  // The kinds the render read (what access control must have checked the caller for), and
  // whether it read over every kind at once.
  std::vector<kind_key> kinds() const;
  bool read_every_kind() const { return every_kind_.has_value(); }

 private:
  std::vector<std::pair<kind_key, std::uint64_t>> kinds_;
  std::optional<std::uint64_t> every_kind_;
  std::uint64_t served_ = 0;
  std::optional<std::uint64_t> documents_;
  std::set<document_key> asked_;
  std::optional<std::uint64_t> problems_;
  std::optional<std::int64_t> second_;
};

}  // namespace sextant
