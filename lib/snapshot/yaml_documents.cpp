#include "snapshot/yaml_documents.hpp"

namespace sextant {
namespace {

bool is_separator(std::string_view line) {
  if (!line.starts_with("---")) {
    return false;
  }
  std::string_view rest = line.substr(3);
  std::size_t first = rest.find_first_not_of(" \t\r");
  return first == std::string_view::npos || rest[first] == '#';
}

// True when the lines hold some YAML: not only blanks and comments.
bool has_content(std::string_view text) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    std::string_view line = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    std::size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') {
      return true;
    }
    if (end == std::string_view::npos) {
      break;
    }
    pos = end + 1;
  }
  return false;
}

}  // namespace

std::vector<yaml_document_text> split_yaml_documents(std::string_view stream) {
  std::vector<yaml_document_text> documents;
  std::size_t document_start = 0;
  int document_line = 1;
  int line_number = 1;
  std::size_t pos = 0;
  auto close_document = [&](std::size_t end) {
    std::string_view text = stream.substr(document_start, end - document_start);
    if (has_content(text)) {
      documents.push_back({text, document_line});
    }
  };
  while (pos < stream.size()) {
    std::size_t end = stream.find('\n', pos);
    std::size_t next = end == std::string_view::npos ? stream.size() : end + 1;
    if (is_separator(stream.substr(pos, next - pos - (end == std::string_view::npos ? 0 : 1)))) {
      close_document(pos);
      document_start = next;
      document_line = line_number + 1;
    }
    pos = next;
    ++line_number;
  }
  close_document(stream.size());
  return documents;
}

}  // namespace sextant
