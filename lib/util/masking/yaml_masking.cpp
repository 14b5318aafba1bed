// Over 400 lines because the parser into its own tree, the masking walk and the emitter share one
// node type and are one pass; a review of what is hidden reads it in one place.
// Section 4 of README.md: a Serve config (YAML or JSON) read with libyaml's event parser into a
// tree of its own, masked, and written back with libyaml's emitter. An alias is a reference to
// its anchored node, never a copy: the walk handles each node at most once per way of masking it
// (plain, hidden keeping names, hidden whole), so aliases that fan out cost what they are written
// as, and the emitter writes them back as aliases. libyaml parses and writes about ten times
// faster than yaml-cpp, which a 1 MB config's time bound needs.
#include <simdjson.h>
#include <yaml.h>

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "util/masking/argv_rules.hpp"
#include "util/masking/characters.hpp"
#include "util/masking/masking_run.hpp"
#include "util/masking/secret_names.hpp"
#include "util/masking/secrets.hpp"

namespace sextant::masking {
namespace {

constexpr std::size_t max_yaml_depth = 64;
constexpr std::size_t no_node = static_cast<std::size_t>(-1);

// Input nested deeper than this is refused before it is read: the walk below recurses.
bool nested_too_deep(std::string_view text) {
  std::size_t depth = 0;
  std::size_t most = 0;
  std::size_t spaces = 0;
  bool line_start = true;
  for (char c : text) {
    if (c == '[' || c == '{') {
      most = std::max(most, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    if (c == '\n') {
      line_start = true;
      spaces = 0;
    } else if (line_start && (c == ' ' || c == '-')) {
      most = std::max(most, ++spaces / 2);
    } else {
      line_start = false;
    }
  }
  return most > max_yaml_depth;
}

// The keys of a pair that name its secret-looking entry: {name: HF_TOKEN, value: x}, in any case.
bool pair_name(std::string_view key) {
  return equals_lowered(key, "name") || equals_lowered(key, "key") || equals_lowered(key, "header") ||
         equals_lowered(key, "headername");
}

enum class node_kind : std::uint8_t { scalar, sequence, mapping, alias };

// How far a node has been masked; only ever raised, so each node is handled at most three times.
enum class masked_as : std::uint8_t { not_yet, plain, hidden_keeping_names, hidden };

struct yaml_node {
  node_kind kind = node_kind::scalar;
  masked_as done = masked_as::not_yet;
  bool changed = false;  // a scalar whose value the masking replaced
  bool plain_implicit = true;
  bool quoted_implicit = true;
  bool implicit = true;               // a collection's tag left out
  int style = 0;                      // libyaml's scalar, sequence or mapping style
  std::uint32_t anchor = 0;           // in yaml_tree::names; 0 for none
  std::uint32_t tag = 0;              // in yaml_tree::names; 0 for none
  std::string value;                  // a scalar's text
  std::vector<std::size_t> children;  // a mapping's: key, value, key, value, ...
  std::size_t target = no_node;       // an alias's anchored node
};

struct yaml_document {
  std::size_t root = no_node;
  bool start_implicit = true;
};

// Anchors and tags are few: kept apart, so that a node stays small.
struct yaml_tree {
  std::vector<yaml_node> nodes;
  std::vector<yaml_document> documents;
  std::vector<std::string> names{std::string()};

  std::uint32_t name(const yaml_char_t* text) {
    if (text == nullptr || *text == 0) {
      return 0;
    }
    names.emplace_back(reinterpret_cast<const char*>(text));
    return static_cast<std::uint32_t>(names.size() - 1);
  }
};

std::string text_of(const yaml_char_t* text) {
  return text == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(text));
}

// libyaml's parser and its events, released whatever happens.
struct parser_handle {
  parser_handle() { yaml_parser_initialize(&parser); }
  ~parser_handle() { yaml_parser_delete(&parser); }
  parser_handle(const parser_handle&) = delete;
  parser_handle& operator=(const parser_handle&) = delete;
  yaml_parser_t parser;
};
struct event_handle {
  ~event_handle() { yaml_event_delete(&event); }
  yaml_event_t event{};
};

// Reads the stream into a tree. False with the reason in `why` when it is not YAML.
bool read_tree(std::string_view yaml, yaml_tree& tree, std::string& why) {
  parser_handle handle;
  yaml_parser_set_input_string(&handle.parser, reinterpret_cast<const unsigned char*>(yaml.data()), yaml.size());
  std::unordered_map<std::string, std::size_t> anchors;
  std::vector<std::size_t> open;  // the collections being read, innermost last
  tree.nodes.reserve(yaml.size() / 8 + 16);
  auto add = [&](yaml_node node) {
    const std::size_t index = tree.nodes.size();
    tree.nodes.push_back(std::move(node));
    if (!open.empty()) {
      tree.nodes[open.back()].children.push_back(index);
    } else if (!tree.documents.empty() && tree.documents.back().root == no_node) {
      tree.documents.back().root = index;
    }
    return index;
  };
  for (;;) {
    event_handle next;
    if (yaml_parser_parse(&handle.parser, &next.event) == 0) {
      why = "it is not YAML (" +
            std::string(handle.parser.problem != nullptr ? handle.parser.problem : "a syntax error") + ", line " +
            std::to_string(handle.parser.problem_mark.line + 1) + ")";
      return false;
    }
    const yaml_event_t& event = next.event;
    switch (event.type) {
      case YAML_STREAM_END_EVENT:
        return true;
      case YAML_DOCUMENT_START_EVENT:
        tree.documents.push_back({no_node, event.data.document_start.implicit != 0});
        break;
      case YAML_SCALAR_EVENT: {
        yaml_node node;
        node.value.assign(reinterpret_cast<const char*>(event.data.scalar.value), event.data.scalar.length);
        node.anchor = tree.name(event.data.scalar.anchor);
        node.tag = tree.name(event.data.scalar.tag);
        node.plain_implicit = event.data.scalar.plain_implicit != 0;
        node.quoted_implicit = event.data.scalar.quoted_implicit != 0;
        node.style = event.data.scalar.style;
        const std::uint32_t anchor = node.anchor;
        const std::size_t index = add(std::move(node));
        if (anchor != 0) {
          anchors[tree.names[anchor]] = index;
        }
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const bool sequence = event.type == YAML_SEQUENCE_START_EVENT;
        yaml_node node;
        node.kind = sequence ? node_kind::sequence : node_kind::mapping;
        node.anchor = tree.name(sequence ? event.data.sequence_start.anchor : event.data.mapping_start.anchor);
        node.tag = tree.name(sequence ? event.data.sequence_start.tag : event.data.mapping_start.tag);
        node.implicit = (sequence ? event.data.sequence_start.implicit : event.data.mapping_start.implicit) != 0;
        node.style = sequence ? static_cast<int>(event.data.sequence_start.style)
                              : static_cast<int>(event.data.mapping_start.style);
        open.push_back(add(std::move(node)));
        break;
      }
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        // Anchored once complete: an alias inside its own anchor is not YAML, and is refused below.
        if (!open.empty()) {
          if (const std::uint32_t anchor = tree.nodes[open.back()].anchor; anchor != 0) {
            anchors[tree.names[anchor]] = open.back();
          }
          open.pop_back();
        }
        break;
      case YAML_ALIAS_EVENT: {
        const std::string anchor = text_of(event.data.alias.anchor);
        auto found = anchors.find(anchor);
        if (found == anchors.end()) {
          why = "it is not YAML (the alias *" + anchor + " names no anchor before it)";
          return false;
        }
        yaml_node node;
        node.kind = node_kind::alias;
        node.target = found->second;
        add(std::move(node));
        break;
      }
      default:
        break;
    }
  }
}

class tree_masker {
 public:
  tree_masker(yaml_tree& tree, std::size_t nesting, masking_run& run) : tree_(tree), nesting_(nesting), run_(run) {}

  bool mask_document(std::size_t root) { return root == no_node || mask(root, 0); }

 private:
  yaml_node& at(std::size_t index) { return tree_.nodes[index]; }

  // The node an alias stands for (an alias never names another alias).
  std::size_t resolved(std::size_t index) { return at(index).kind == node_kind::alias ? at(index).target : index; }

  // Marks a node as masked `how`; false when it already is (or more).
  bool claim(std::size_t index, masked_as how) {
    if (at(index).done >= how) {
      return false;
    }
    at(index).done = how;
    return true;
  }

  bool enter(std::size_t depth) {
    if (depth > max_yaml_depth) {
      return run_.fail("it is nested deeper than " + std::to_string(max_yaml_depth) + " levels");
    }
    return run_.spend(1);
  }

  // The scalar text of a mapping's key, or nullopt (with the run failed) for a complex key.
  const std::string* key_text(std::size_t key) {
    const yaml_node& node = at(resolved(key));
    if (node.kind != node_kind::scalar) {
      run_.fail("a key in it is not a string");
      return nullptr;
    }
    return &node.value;
  }

  void replace(std::size_t index, std::string value) {
    yaml_node& node = at(index);
    if (node.value == value) {
      return;
    }
    node.value = std::move(value);
    node.changed = true;
  }

  // A node in a plain position: its secret positions hidden.
  bool mask(std::size_t index, std::size_t depth) {
    if (!enter(depth)) {
      return false;
    }
    index = resolved(index);
    if (!claim(index, masked_as::plain)) {
      return true;
    }
    switch (at(index).kind) {
      case node_kind::mapping:
        return mask_mapping(index, depth);
      case node_kind::sequence:
        return mask_sequence(index, depth);
      case node_kind::scalar:
        return mask_scalar(index);
      case node_kind::alias:
        return true;
    }
    return true;
  }

  bool mask_mapping(std::size_t index, std::size_t depth) {
    const std::vector<std::size_t>& children = at(index).children;  // the tree no longer grows
    bool secret_pair = false;                                       // {name: HF_TOKEN, value: x}
    for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
      const std::string* key = key_text(children[i]);
      if (key == nullptr) {
        return false;
      }
      const yaml_node& value = at(resolved(children[i + 1]));
      if (pair_name(*key) && value.kind == node_kind::scalar && secret_looking_key(value.value)) {
        secret_pair = true;
      }
    }
    for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
      const std::string key = *key_text(children[i]);
      const std::size_t value = children[i + 1];
      const yaml_node& target = at(resolved(value));
      const bool collection = target.kind == node_kind::mapping || target.kind == node_kind::sequence;
      bool ok = true;
      if (secret_pair && equals_lowered(key, "value")) {
        ok = hide(value, false, depth + 1);
      } else if (environment_key(key) && collection) {
        ok = hide(value, true, depth + 1);
      } else if (secret_looking_key(key)) {
        ok = target.kind == node_kind::scalar && shown_path_value(key, target.value) ? mask(value, depth + 1)
                                                                                     : hide(value, false, depth + 1);
      } else {
        ok = mask(value, depth + 1);
      }
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  // A sequence is an argv too: `[--api-key, sk-x]` hides sk-x.
  bool mask_sequence(std::size_t index, std::size_t depth) {
    const std::vector<std::size_t>& items = at(index).children;
    std::vector<argv_word> words;
    std::vector<std::size_t> scalar_of_word;
    bool starts_command = true;
    for (std::size_t item : items) {
      const std::size_t scalar = resolved(item);
      if (at(scalar).kind != node_kind::scalar) {
        starts_command = true;
        continue;
      }
      words.push_back({at(scalar).value, starts_command});
      scalar_of_word.push_back(scalar);
      starts_command = false;
    }
    std::vector<std::string> replacements;
    std::vector<std::size_t> replaced;
    for (const argv_hide& hide : secret_arguments(words, false)) {
      replaced.push_back(scalar_of_word[hide.word]);
      replacements.push_back(std::string(words[hide.word].value.substr(0, hide.from)) + std::string(hidden));
    }
    for (std::size_t i = 0; i < replaced.size(); ++i) {
      replace(replaced[i], std::move(replacements[i]));
      at(replaced[i]).done = masked_as::hidden;
    }
    for (std::size_t item : items) {
      if (!mask(item, depth + 1)) {
        return false;
      }
    }
    return true;
  }

  bool mask_scalar(std::size_t index) {
    const std::string& value = at(index).value;
    if (value == hidden) {
      return true;
    }
    if (!run_.spend(value.size())) {
      return false;
    }
    std::optional<std::string> masked = mask_nested_value(value, reading::lenient, nesting_ + 1, run_);
    if (!masked) {
      return false;
    }
    replace(index, std::move(*masked));
    return true;
  }

  // A node in a secret position: every value in it hidden; maps keep their keys, and with
  // `keep_names` (an environment) the names of `{name: N, value: V}` entries and of `N=V` items.
  bool hide(std::size_t index, bool keep_names, std::size_t depth) {
    if (!enter(depth)) {
      return false;
    }
    index = resolved(index);
    if (!claim(index, keep_names ? masked_as::hidden_keeping_names : masked_as::hidden)) {
      return true;
    }
    const std::vector<std::size_t>& children = at(index).children;  // the tree no longer grows
    switch (at(index).kind) {
      case node_kind::mapping:
        for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
          const std::string* key = key_text(children[i]);
          if (key == nullptr) {
            return false;
          }
          if (keep_names && equals_lowered(*key, "name") && at(resolved(children[i + 1])).kind == node_kind::scalar) {
            continue;
          }
          if (!hide(children[i + 1], keep_names, depth + 1)) {
            return false;
          }
        }
        return true;
      case node_kind::sequence:
        for (std::size_t item : children) {
          const std::size_t target = resolved(item);
          if (keep_names && at(target).kind == node_kind::scalar) {
            const std::string& text = at(target).value;
            const std::size_t equals = text.find('=');
            replace(target, equals == std::string::npos ? std::string(hidden)
                                                        : text.substr(0, equals + 1) + std::string(hidden));
            at(target).done = masked_as::hidden;
          } else if (!hide(item, keep_names, depth + 1)) {
            return false;
          }
        }
        return true;
      case node_kind::scalar:
        replace(index, std::string(hidden));
        return true;
      case node_kind::alias:
        return true;
    }
    return true;
  }

  yaml_tree& tree_;
  std::size_t nesting_;
  masking_run& run_;
};

// libyaml's emitter writing into a string, released whatever happens.
class tree_writer {
 public:
  explicit tree_writer(const yaml_tree& tree) : tree_(tree) {
    yaml_emitter_initialize(&emitter_);
    yaml_emitter_set_output(&emitter_, &tree_writer::append, &out_);
    yaml_emitter_set_unicode(&emitter_, 1);
    yaml_emitter_set_width(&emitter_, -1);  // never fold a long line: a folded value reads as another
  }
  ~tree_writer() { yaml_emitter_delete(&emitter_); }
  tree_writer(const tree_writer&) = delete;
  tree_writer& operator=(const tree_writer&) = delete;

  std::optional<std::string> write() {
    yaml_event_t event;
    yaml_stream_start_event_initialize(&event, YAML_UTF8_ENCODING);
    if (!emit(event)) {
      return std::nullopt;
    }
    for (std::size_t i = 0; i < tree_.documents.size(); ++i) {
      const yaml_document& document = tree_.documents[i];
      yaml_document_start_event_initialize(&event, nullptr, nullptr, nullptr, i == 0 && document.start_implicit);
      if (!emit(event) || (document.root != no_node && !write_node(document.root, 0))) {
        return std::nullopt;
      }
      yaml_document_end_event_initialize(&event, 1);
      if (!emit(event)) {
        return std::nullopt;
      }
    }
    yaml_stream_end_event_initialize(&event);
    if (!emit(event) || yaml_emitter_flush(&emitter_) == 0) {
      return std::nullopt;
    }
    return std::move(out_);
  }

 private:
  static int append(void* data, unsigned char* buffer, size_t size) {
    static_cast<std::string*>(data)->append(reinterpret_cast<const char*>(buffer), size);
    return 1;
  }

  bool emit(yaml_event_t& event) { return yaml_emitter_emit(&emitter_, &event) != 0; }

  yaml_char_t* chars(std::uint32_t name) const {
    return name == 0 ? nullptr : reinterpret_cast<yaml_char_t*>(const_cast<char*>(tree_.names[name].c_str()));
  }

  bool write_node(std::size_t index, std::size_t depth) {
    if (depth > 2 * max_yaml_depth) {
      return false;
    }
    const yaml_node& node = tree_.nodes[index];
    yaml_event_t event;
    switch (node.kind) {
      case node_kind::alias:
        return yaml_alias_event_initialize(&event, chars(tree_.nodes[node.target].anchor)) != 0 && emit(event);
      case node_kind::scalar: {
        // A value the masking changed loses its tag (`!!int <hidden>` would not read back) and
        // lets the emitter choose its quoting, but keeps a literal or folded block's style.
        const bool block = node.style == YAML_LITERAL_SCALAR_STYLE || node.style == YAML_FOLDED_SCALAR_STYLE;
        const auto style =
            node.changed && !block ? YAML_ANY_SCALAR_STYLE : static_cast<yaml_scalar_style_t>(node.style);
        return yaml_scalar_event_initialize(&event, chars(node.anchor), node.changed ? nullptr : chars(node.tag),
                                            reinterpret_cast<yaml_char_t*>(const_cast<char*>(node.value.data())),
                                            static_cast<int>(node.value.size()), node.changed || node.plain_implicit,
                                            node.changed || node.quoted_implicit, style) != 0 &&
               emit(event);
      }
      case node_kind::sequence:
      case node_kind::mapping: {
        const bool sequence = node.kind == node_kind::sequence;
        const int started =
            sequence ? yaml_sequence_start_event_initialize(&event, chars(node.anchor), chars(node.tag), node.implicit,
                                                            static_cast<yaml_sequence_style_t>(node.style))
                     : yaml_mapping_start_event_initialize(&event, chars(node.anchor), chars(node.tag), node.implicit,
                                                           static_cast<yaml_mapping_style_t>(node.style));
        if (started == 0 || !emit(event)) {
          return false;
        }
        for (std::size_t child : node.children) {
          if (!write_node(child, depth + 1)) {
            return false;
          }
        }
        if (sequence) {
          yaml_sequence_end_event_initialize(&event);
        } else {
          yaml_mapping_end_event_initialize(&event);
        }
        return emit(event);
      }
    }
    return false;
  }

  const yaml_tree& tree_;
  yaml_emitter_t emitter_;
  std::string out_;
};

}  // namespace

yaml_masked mask_yaml_text(std::string_view yaml, std::size_t nesting, masking_run& run) {
  yaml_masked result;
  if (nesting > max_nested_texts) {
    run.fail("it holds texts inside texts more than " + std::to_string(max_nested_texts) + " deep");
    return result;
  }
  if (nested_too_deep(yaml)) {
    run.fail("it is nested deeper than " + std::to_string(max_yaml_depth) + " levels");
    return result;
  }
  // libyaml reads UTF-8 only, and a byte read leniently could be written back as another text:
  // YAML that is not valid UTF-8 is not shown at all.
  if (!simdjson::validate_utf8(yaml.data(), yaml.size())) {
    run.fail("it is not valid UTF-8");
    return result;
  }
  if (!run.spend(yaml.size() + 1)) {
    return result;
  }
  yaml_tree tree;
  std::string why;
  if (!read_tree(yaml, tree, why)) {
    result.outcome = yaml_outcome::not_yaml;
    run.fail(std::move(why));
    return result;
  }
  tree_masker masker(tree, nesting, run);
  for (const yaml_document& document : tree.documents) {
    if (!masker.mask_document(document.root)) {
      return result;
    }
  }
  std::optional<std::string> out = tree_writer(tree).write();
  if (!out) {
    run.fail("it could not be written back as YAML");
    return result;
  }
  // The emitter ends a stream with a line break; a value read again from inside a string does not
  // need it.
  if (nesting > 0) {
    while (!out->empty() && (out->back() == '\n')) {
      out->pop_back();
    }
  }
  if (!within_output_bound(yaml, *out)) {
    run.fail("masked, it would be many times longer than written");
    return result;
  }
  result.outcome = yaml_outcome::masked;
  result.text = std::move(*out);
  return result;
}

}  // namespace sextant::masking
