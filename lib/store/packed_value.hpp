#pragma once
// A cached object's body, packed: one immutable allocation per object, read in place.
//
// nlohmann's tree spends 48 bytes on every object member plus an allocation per container and per
// long string: about 6 KB for a Workload whose JSON is 900 bytes (bench/). A packed body is
// smaller than its compact JSON: Kubernetes' repeated words take a byte each. Bodies are written
// once at ingest and only read after, so nothing needs to move or grow.
//
// A `packed_value` is not an object of its own: a `const packed_value&` is the address of a value's first byte
// inside a packed body, so views hold `const packed_value&` and `const packed_value*` exactly as they would hold
// nlohmann's `const json&`, and the reading API follows nlohmann's names where it overlaps.
//
// Layout of one value, starting at its tag byte (varints are LEB128, little-endian groups of 7
// bits; doubles are 8 bytes, little-endian, unaligned):
//   null, false, true          tag
//   signed                     tag, varint of the zigzag-encoded value
//   unsigned                   tag, varint
//   double                     tag, 8 bytes
//   string                     tag, text
//   array                      tag, varint element count, varint payload bytes, elements
//   object                     tag, varint member count, varint payload bytes, members
//   member                     text of the key, value
// A text (a key, or a string's value) starts with one byte: below 128 its length, the bytes
// following; 128 to 254 the word numbered byte - 128 of store/packed_vocabulary.hpp, nothing
// following; 255 a u32 length, then the bytes. The vocabulary's words cost one byte each
// ("lastTransitionTime" 19 bytes before), and a container's header 3 bytes instead of 9: a Pod's
// body is less than half the size it was with fixed-width headers and spelt-out keys.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "util/json.hpp"

namespace sextant {

// A text's first byte (see the layout above): from here up, a vocabulary word's number; at
// packed_long_text, a u32 length follows.
inline constexpr std::uint8_t packed_first_word = 128;
inline constexpr std::uint8_t packed_long_text = 255;

enum class packed_tag : std::uint8_t {
  null,
  boolean_false,
  boolean_true,
  signed_integer,
  unsigned_integer,
  number,
  string,
  array,
  object
};

class packed_value;

// A member of a packed object, as `items()` yields it; binds as `const auto& [key, value]`.
struct packed_member {
  std::string_view key;
  const packed_value& value;
};

class packed_value {
 public:
  packed_value(const packed_value&) = delete;
  packed_value& operator=(const packed_value&) = delete;

  packed_tag tag() const { return tag_; }
  bool is_null() const { return tag_ == packed_tag::null; }
  bool is_boolean() const { return tag_ == packed_tag::boolean_false || tag_ == packed_tag::boolean_true; }
  bool is_number_integer() const { return tag_ == packed_tag::signed_integer || tag_ == packed_tag::unsigned_integer; }
  bool is_number_unsigned() const { return tag_ == packed_tag::unsigned_integer; }
  bool is_number_float() const { return tag_ == packed_tag::number; }
  bool is_number() const { return is_number_integer() || is_number_float(); }
  bool is_string() const { return tag_ == packed_tag::string; }
  bool is_array() const { return tag_ == packed_tag::array; }
  bool is_object() const { return tag_ == packed_tag::object; }

  // As nlohmann counts: members or elements of a container, 0 for null, 1 for any other scalar.
  std::size_t size() const;
  bool empty() const { return size() == 0; }

  // The text of a string, empty for anything else.
  std::string_view string_view() const;
  // Scalars converted as nlohmann converts them; a mistyped read gives 0, false or "".
  std::int64_t as_int() const;
  double as_double() const;
  bool as_bool() const { return tag_ == packed_tag::boolean_true; }
  template <typename T>
  T get() const;

  // The member named `key` of an object, or nullptr.
  const packed_value* member(std::string_view key) const;
  bool contains(std::string_view key) const { return member(key) != nullptr; }
  // Element `index` of an array, or nullptr.
  const packed_value* element(std::size_t index) const;
  // As member() and element(), but a null for what is not there: safe where nlohmann's is not.
  const packed_value& operator[](std::string_view key) const;
  const packed_value& operator[](const char* key) const { return (*this)[std::string_view(key)]; }
  const packed_value& operator[](std::size_t index) const;
  const packed_value& operator[](int index) const { return (*this)[static_cast<std::size_t>(index)]; }

  // Elements of an array, values of an object (as nlohmann iterates); nothing for a scalar.
  class const_iterator;
  const_iterator begin() const;
  const_iterator end() const;
  const packed_value& front() const;
  const packed_value& back() const;

  // Members of an object; nothing for anything else.
  class member_iterator;
  struct member_range {
    const packed_value* container;
    member_iterator begin() const;
    member_iterator end() const;
  };
  member_range items() const { return member_range{this}; }

  // Compact JSON text, as nlohmann's dump() writes it.
  std::string dump() const;

  // The byte size of this value, tag included: where the next value starts.
  std::size_t byte_size() const;

  // A null, an empty array and an empty object that live forever: the fallbacks of readers.
  static const packed_value& null_value();
  static const packed_value& empty_array();
  static const packed_value& empty_object();

 private:
  const std::uint8_t* bytes() const { return reinterpret_cast<const std::uint8_t*>(this); }
  static const packed_value& at(const std::uint8_t* where) { return *reinterpret_cast<const packed_value*>(where); }
  const std::uint8_t* first_child() const;  // of a container
  const std::uint8_t* payload_end() const;  // of a container

  packed_tag tag_;
};

class packed_value::const_iterator {
 public:
  using value_type = packed_value;
  using reference = const packed_value&;
  using pointer = const packed_value*;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::forward_iterator_tag;

  const_iterator() = default;
  const_iterator(const std::uint8_t* at, bool object_values) : at_(at), object_values_(object_values) {}
  const packed_value& operator*() const;
  const packed_value* operator->() const { return &**this; }
  const_iterator& operator++();
  const_iterator operator++(int) {
    const_iterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const const_iterator& other) const { return at_ == other.at_; }

 private:
  const std::uint8_t* at_ = nullptr;  // a value, or for objects a member's key length
  bool object_values_ = false;
};

class packed_value::member_iterator {
 public:
  using value_type = packed_member;
  using reference = const packed_member&;
  using difference_type = std::ptrdiff_t;
  using iterator_category = std::input_iterator_tag;

  member_iterator(const std::uint8_t* at, const std::uint8_t* end);
  const packed_member& operator*() const { return *current_; }
  const packed_member* operator->() const { return &*current_; }
  member_iterator& operator++();
  bool operator==(const member_iterator& other) const { return at_ == other.at_; }

 private:
  void read();
  const std::uint8_t* at_;
  const std::uint8_t* end_;
  // Rebuilt at each step: the member holds a reference, so it cannot be reassigned.
  std::optional<packed_member> current_;
};

template <>
inline std::string packed_value::get<std::string>() const {
  return std::string(string_view());
}
template <>
inline std::string_view packed_value::get<std::string_view>() const {
  return string_view();
}
template <>
inline std::int64_t packed_value::get<std::int64_t>() const {
  return as_int();
}
template <>
inline int packed_value::get<int>() const {
  return static_cast<int>(as_int());
}
template <>
inline double packed_value::get<double>() const {
  return as_double();
}
template <>
inline long double packed_value::get<long double>() const {
  return static_cast<long double>(as_double());
}
template <>
inline bool packed_value::get<bool>() const {
  return as_bool();
}

// The owner of one packed value: a single allocation, never changed after it is written.
class packed_body {
 public:
  packed_body() = default;  // a null
  packed_body(std::unique_ptr<std::uint8_t[]> bytes, std::size_t size) : bytes_(std::move(bytes)), size_(size) {}
  packed_body(const packed_body& other);
  packed_body& operator=(const packed_body& other);
  packed_body(packed_body&&) noexcept = default;
  packed_body& operator=(packed_body&&) noexcept = default;
  ~packed_body() = default;

  const packed_value& root() const;
  std::size_t size() const { return size_; }  // bytes held
  const std::uint8_t* data() const { return bytes_.get(); }

 private:
  std::unique_ptr<std::uint8_t[]> bytes_;
  std::size_t size_ = 0;
};

// Whether a value is the string `text`, or the integer `number`: for checks and tests.
inline bool operator==(const packed_value& value, std::string_view text) {
  return value.is_string() && value.string_view() == text;
}
inline bool operator==(const packed_value& value, std::int64_t number) {
  return value.is_number_integer() && value.as_int() == number;
}

// nlohmann's hook: `json j = some_node;` copies a packed value into a response.
void to_json(json& out, const packed_value& value);

// Packs an nlohmann value (tests, snapshot files decoded whole).
packed_body pack(const json& value);

// Where the readers of util/json.hpp step for a packed value.
inline const packed_value* member_of(const packed_value& value, std::string_view key) {
  return value.member(key);
}
inline const packed_value* element_of(const packed_value& value, std::size_t index) {
  return value.element(index);
}
inline std::string_view string_of(const packed_value& value) {
  return value.string_view();
}
inline const packed_value& empty_array_of(const packed_value&) {
  return packed_value::empty_array();
}
inline const packed_value& empty_object_of(const packed_value&) {
  return packed_value::empty_object();
}

}  // namespace sextant
