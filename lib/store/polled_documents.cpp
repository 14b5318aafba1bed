#include "store/polled_documents.hpp"

namespace sextant {

void polled_documents::set(const document_key& key, json body, time_point read_at) {
  documents_[key] = polled_document_entry{pack(body), read_at};
  failed_.erase(key);
  unavailable_.erase(key.id);
  ++generation_;
}

void polled_documents::set_missing(const document_key& key, std::string why) {
  auto [it, added] = failed_.try_emplace(key, why);
  if (added || it->second != why) {
    it->second = std::move(why);
    ++generation_;
  }
}

void polled_documents::set_missing_all(const std::string& id, std::string why) {
  if (why.empty()) {
    if (unavailable_.erase(id) > 0) {
      ++generation_;
    }
    return;
  }
  auto [it, added] = unavailable_.try_emplace(id, why);
  if (added || it->second != why) {
    it->second = std::move(why);
    ++generation_;
  }
}

std::string polled_documents::missing_because(const document_key& key) const {
  if (auto it = failed_.find(key); it != failed_.end()) {
    return it->second;
  }
  auto it = unavailable_.find(key.id);
  return it == unavailable_.end() ? std::string() : it->second;
}

void polled_documents::erase(const document_key& key) {
  if (documents_.erase(key) > 0) {
    ++generation_;
  }
}

void polled_documents::erase_all(const std::string& id) {
  if (std::erase_if(documents_, [&id](const auto& entry) { return entry.first.id == id; }) > 0) {
    ++generation_;
  }
}

const polled_document_entry* polled_documents::find(const document_key& key) const {
  auto it = documents_.find(key);
  return it == documents_.end() ? nullptr : &it->second;
}

void polled_documents::ask(const document_key& key) const {
  asked_[key] = steady::now();
}

std::vector<document_key> polled_documents::asked_since(const std::string& id, steady::time_point since) {
  std::vector<document_key> keys;
  for (auto it = asked_.begin(); it != asked_.end();) {
    if (it->second < since) {
      // Nobody looks at it any more: do not serve it stale later.
      if (documents_.erase(it->first) > 0) {
        ++generation_;
      }
      failed_.erase(it->first);
      it = asked_.erase(it);
      continue;
    }
    if (it->first.id == id) {
      keys.push_back(it->first);
    }
    ++it;
  }
  return keys;
}

}  // namespace sextant
