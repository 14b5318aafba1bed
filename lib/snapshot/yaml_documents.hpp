#pragma once
// Splits a multi-document YAML stream at its "---" lines, as kubectl's YAML reader does, so each
// document is parsed on its own: a broken one is reported with its line and the others still
// load. It also keeps yaml-cpp 0.7's YAML::LoadAll out of the way, which loops forever on some
// malformed streams (a document that is only ",": jbeder/yaml-cpp#1040, fixed after 0.8).
#include <string_view>
#include <vector>

namespace sextant {

struct yaml_document_text {
  std::string_view text;  // without its separator line
  int first_line = 1;     // 1-based line of the stream where `text` begins
};

// A separator is a line that starts with "---" followed by nothing but spaces or a comment.
// Documents with nothing but blank lines and comments are left out.
std::vector<yaml_document_text> split_yaml_documents(std::string_view stream);

}  // namespace sextant
