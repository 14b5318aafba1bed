#pragma once
// Sentences as every section writes them: an operator's message made a sentence, sentences
// joined, and a problem's message. One rule for where a sentence ends, so that no two sections
// end the same message differently.
#include <string>
#include <string_view>

#include "sections/section.hpp"

namespace sextant {

// Whether the text already ends a sentence: its last character, past closing brackets and
// quotes and trailing spaces, is '.', '!' or '?'. A closing bracket alone does not end one:
// "failed (exit code 1)" needs a full stop, "failed (see the log.)" does not.
bool ends_sentence(std::string_view text);

// The text as a sentence: trailing spaces dropped and a full stop added unless it ends one
// already. Nothing else changes (an operator's words are quoted as written); "" stays "".
std::string as_sentence(std::string_view text);

// The daemon's own phrase as a sentence: as_sentence, its first letter a capital.
std::string capitalized_sentence(std::string_view phrase);

// Appends a sentence to a text, ending the text first and joining the two with a space.
void add_sentence(std::string& text, std::string_view sentence);

// A problem's message: "<head> (<reason>): <message as a sentence>", the reason when there is
// one, and "<head> (<reason>)." when the state has no message.
std::string problem_message(std::string_view head, const object_state& state);

}  // namespace sextant
