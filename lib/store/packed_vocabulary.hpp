#pragma once
// The words Kubernetes objects repeat in every object of a kind: field names ("lastTransitionTime",
// "ownerReferences"), condition statuses and types, phases, well-known labels. A packed body
// writes one of these as a single byte instead of its length and text (store/packed_value.hpp),
// which takes about a third off a Pod's cached body (bench/ingest_bench).
//
// The list is fixed at compile time and only appended to: a word's number is its place in it,
// and nothing written with it outlives the process, so appending is safe (reordering would be too). At most
// `packed_vocabulary_size` words.
#include <cstddef>
#include <optional>
#include <string_view>

namespace sextant {

inline constexpr std::size_t packed_vocabulary_size = 127;
// The shortest and longest words' lengths: a text outside them is no word, without a lookup.
inline constexpr std::size_t vocabulary_shortest = 2;
inline constexpr std::size_t vocabulary_longest = 30;

// The number of a text of the words' lengths in the vocabulary, if it is there.
std::optional<std::size_t> vocabulary_lookup(std::string_view text);

// The number of `text` in the vocabulary, if it is there. Inline, so that the texts of most
// values (messages, timestamps, uids: longer than any word) cost the ingest one comparison.
inline std::optional<std::size_t> vocabulary_index(std::string_view text) {
  if (text.size() > vocabulary_longest || text.size() < vocabulary_shortest) {
    return std::nullopt;
  }
  return vocabulary_lookup(text);
}
// The word numbered `index` (below the vocabulary's size).
std::string_view vocabulary_word(std::size_t index);
// How many words the vocabulary holds.
std::size_t vocabulary_words();

}  // namespace sextant
