#include "store/served_kinds.hpp"

#include <algorithm>

namespace sextant {

std::string choose_version(const served_kind& kind, const std::vector<std::string>& preference) {
  return choose_version(kind.versions, preference);
}

std::string choose_version(const std::vector<std::string>& served, const std::vector<std::string>& preference) {
  for (const std::string& wanted : preference) {
    if (std::find(served.begin(), served.end(), wanted) != served.end()) {
      return wanted;
    }
  }
  return served.empty() ? std::string() : served.front();
}

void served_kinds::add(served_kind kind) {
  auto it = kinds_.find(kind.type);
  if (it == kinds_.end()) {
    kinds_.emplace(kind.type, std::move(kind));
    ++generation_;
    return;
  }
  for (std::string& version : kind.versions) {
    auto& versions = it->second.versions;
    if (std::find(versions.begin(), versions.end(), version) == versions.end()) {
      versions.push_back(std::move(version));
      ++generation_;
    }
  }
  if (it->second.plural.empty() && !kind.plural.empty()) {
    it->second.plural = kind.plural;
    ++generation_;
  }
}

void served_kinds::remove(const kind_key& type) {
  if (kinds_.erase(type) > 0) {
    ++generation_;
  }
}

const served_kind* served_kinds::find(const kind_key& type) const {
  auto it = kinds_.find(type);
  return it == kinds_.end() ? nullptr : &it->second;
}

std::vector<std::string> served_kinds::group_versions(const std::string& group) const {
  std::vector<std::string> out;
  for (const auto& [type, kind] : kinds_) {
    if (type.group != group) {
      continue;
    }
    for (const std::string& version : kind.versions) {
      if (std::find(out.begin(), out.end(), version) == out.end()) {
        out.push_back(version);
      }
    }
  }
  return out;
}

std::vector<served_kind> served_kinds::all() const {
  std::vector<served_kind> out;
  for (const auto& [type, kind] : kinds_) {
    out.push_back(kind);
  }
  return out;
}

}  // namespace sextant
