#include "api/answer_key.hpp"

#include "util/key_encoding.hpp"

namespace sextant {

std::string answer_scope(const parsed_target& target) {
  key_builder key;
  key.count(target.segments.size());
  for (const std::string& segment : target.segments) {
    key.add(segment);
  }
  key.count(target.query.size());
  for (const auto& [name, value] : target.query) {
    key.add(name).add(value);
  }
  return key.take();
}

std::string answer_key(const std::string& scope, bool gzip) {
  return scope + key_builder().add(gzip ? "gzip" : "identity").take();
}

}  // namespace sextant
