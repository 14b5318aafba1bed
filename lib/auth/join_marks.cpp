#include "auth/join_marks.hpp"

#include <algorithm>

namespace sextant {
namespace {

// The mark starts with a control character, which JSON text always escapes: as dumped it reads
// "\u0001J, which no string of an object's own can produce outside a string.
constexpr char mark_lead = '\x01';
constexpr std::string_view dumped_mark = "\"\\u0001J";

// Copies a JSON string starting at text[i] (its opening quote) into `out`; returns the index
// past its closing quote.
std::size_t copy_string(std::string_view text, std::size_t i, std::string& out) {
  const std::size_t start = i;
  ++i;
  while (i < text.size() && text[i] != '"') {
    i += text[i] == '\\' ? 2 : 1;
  }
  i = std::min(i + 1, text.size());
  out.append(text.substr(start, i - start));
  return i;
}

}  // namespace

json join_marked_path(const kind_key& type, std::string_view namespace_, const json& path) {
  std::string marked(1, mark_lead);
  marked.append("J").append(type.group).append("|").append(type.kind).append("|").append(namespace_).append("|");
  if (path.is_string()) {
    marked += "S" + path.get<std::string>();
  } else {
    marked += "N";
  }
  return marked;
}

stripped_view strip_join_marks(std::string_view text) {
  stripped_view out;
  if (text.find(dumped_mark) == std::string_view::npos) {
    out.text = std::string(text);
    return out;
  }
  out.text.reserve(text.size());
  struct open_object {
    std::size_t begin;
    bool marked = false;
    kind_key type;
    std::string namespace_;
  };
  std::vector<open_object> objects;  // the '{' still open, innermost last
  std::vector<bool> in_object;       // per open container: true for an object, false for an array
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == '"') {
      if (text.compare(i, dumped_mark.size(), dumped_mark) != 0) {
        i = copy_string(text, i, out.text);
        continue;
      }
      // group|kind|namespace|S<path>" or group|kind|namespace|N"
      std::size_t at = i + dumped_mark.size();
      std::string fields[3];
      for (std::string& field : fields) {
        const std::size_t bar = text.find('|', at);
        if (bar == std::string_view::npos) {
          break;
        }
        field = std::string(text.substr(at, bar - at));
        at = bar + 1;
      }
      const bool null_path = at < text.size() && text[at] == 'N';
      if (!in_object.empty() && in_object.back() && !objects.empty() && !objects.back().marked) {
        open_object& holder = objects.back();
        holder.marked = true;
        holder.type = kind_key{fields[0], fields[1]};
        holder.namespace_ = fields[2];
      }
      if (null_path) {
        out.text += "null";
        std::string ignored;
        i = copy_string(text, at, ignored);  // from the flag to the closing quote
        // copy_string treats text[at] as an opening quote: the flag 'N' is followed by '"'.
        continue;
      }
      out.text += '"';
      i = at + 1;  // past the flag 'S'
      while (i < text.size() && text[i] != '"') {
        const std::size_t step = text[i] == '\\' ? 2 : 1;
        out.text.append(text.substr(i, step));
        i += step;
      }
      out.text += '"';
      ++i;
      continue;
    }
    if (c == '{') {
      objects.push_back({out.text.size(), false, {}, {}});
      in_object.push_back(true);
    } else if (c == '[') {
      in_object.push_back(false);
    } else if (c == ']') {
      if (!in_object.empty()) {
        in_object.pop_back();
      }
    } else if (c == '}') {
      out.text += c;
      ++i;
      if (!in_object.empty()) {
        in_object.pop_back();
      }
      if (!objects.empty()) {
        open_object closed = std::move(objects.back());
        objects.pop_back();
        if (closed.marked) {
          out.joins.push_back({closed.begin, out.text.size(), std::move(closed.type), std::move(closed.namespace_)});
        }
      }
      continue;
    }
    out.text += c;
    ++i;
  }
  return out;
}

std::string redact_joins(std::string_view text, const std::vector<join_span>& joins,
                         const std::function<std::optional<std::string>(const join_span&)>& hidden) {
  std::vector<const join_span*> ordered;
  ordered.reserve(joins.size());
  for (const join_span& span : joins) {
    ordered.push_back(&span);
  }
  // Outer entries before the entries inside them.
  std::sort(ordered.begin(), ordered.end(), [](const join_span* a, const join_span* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end > b->end;
  });
  std::string out;
  out.reserve(text.size());
  std::size_t copied = 0;
  for (const join_span* span : ordered) {
    if (span->begin < copied || span->end > text.size()) {
      continue;  // inside an entry already replaced
    }
    std::optional<std::string> sentence = hidden(*span);
    if (!sentence) {
      continue;
    }
    out.append(text.substr(copied, span->begin - copied));
    out += json{{"hidden", *sentence}}.dump(-1, ' ', false, json::error_handler_t::replace);
    copied = span->end;
  }
  out.append(text.substr(copied));
  return out;
}

}  // namespace sextant
