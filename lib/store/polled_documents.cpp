#include "store/polled_documents.hpp"

namespace sextant {

void polled_documents::set(const document_key& key, json body, time_point read_at) {
  documents_[key] = polled_document_entry{pack(body), read_at};
}

void polled_documents::erase(const document_key& key) {
  documents_.erase(key);
}

void polled_documents::erase_all(const std::string& id) {
  std::erase_if(documents_, [&id](const auto& entry) { return entry.first.id == id; });
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
      documents_.erase(it->first);  // nobody looks at it any more: do not serve it stale later
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
