#include "ingest/field_mask.hpp"

namespace sextant {
namespace {
const field_mask keep_all_mask = field_mask::everything();
}

field_mask field_mask::only(std::initializer_list<std::string_view> paths) {
  return only(std::vector<std::string_view>(paths));
}

field_mask field_mask::only(const std::vector<std::string_view>& paths) {
  field_mask mask;
  mask.keep_all_ = false;
  for (std::string_view path : paths) {
    mask.add_path(path);
  }
  return mask;
}

void field_mask::keep(std::string_view path) {
  if (!is_whole()) {
    add_path(path);
  }
}

void field_mask::add_path(std::string_view path) {
  auto dot = path.find('.');
  const bool leaf = dot == std::string_view::npos;
  std::string_view head = path.substr(0, dot);
  field_mask* next = nullptr;
  for (auto& [key, child_mask] : children_) {
    if (key == head) {
      next = &child_mask;
    }
  }
  if (next == nullptr) {
    children_.emplace_back(std::string(head), field_mask{});
    next = &children_.back().second;
    next->keep_all_ = leaf;  // a longer path narrows the new member to what it names
  } else if (next->keep_all_ && next->children_.empty()) {
    return;  // already kept whole by a shorter path
  }
  if (leaf) {
    next->keep_all_ = true;
    next->children_.clear();
    return;
  }
  next->add_path(path.substr(dot + 1));
}

const field_mask* field_mask::child(std::string_view key) const {
  for (const auto& [name, mask] : children_) {
    if (name == key) {
      return &mask;
    }
  }
  return keep_all_ ? &keep_all_mask : nullptr;
}

}  // namespace sextant
