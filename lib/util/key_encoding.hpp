#pragma once
// Cache keys made of outside text (a request's decoded query, a caller's groups and extra
// values): each field is written as its length, a colon, then its bytes. No byte of a field can
// then pass for a separator, so two different lists of fields never share a key: a query value
// "nightly&state=Pending" stays one value, and ["a,b"] is not ["a", "b"].
#include <cstddef>
#include <string>
#include <string_view>

namespace sextant {

class key_builder {
 public:
  key_builder& add(std::string_view field) {
    key_ += std::to_string(field.size());
    key_ += ':';
    key_.append(field);
    return *this;
  }
  // A count of the fields that follow, so that where one list ends and the next begins is
  // written too.
  key_builder& count(std::size_t fields) { return add(std::to_string(fields)); }

  const std::string& text() const { return key_; }
  std::string take() { return std::move(key_); }

 private:
  std::string key_;
};

}  // namespace sextant
