#include "store/packed_value.hpp"

#include <cstring>

#include "store/packed_writer.hpp"

namespace sextant {
namespace {

std::uint32_t read_u32(const std::uint8_t* at) {
  std::uint32_t value = 0;
  std::memcpy(&value, at, sizeof value);
  return value;
}

template <typename T>
T read_scalar(const std::uint8_t* at) {
  T value{};
  std::memcpy(&value, at, sizeof value);
  return value;
}

// A length and the bytes it took.
struct length_field {
  std::size_t value;
  std::size_t bytes;
};

length_field read_length(const std::uint8_t* at) {
  if (*at != packed_long_length) {
    return {*at, 1};
  }
  return {read_u32(at + 1), 5};
}

// The value of the member whose key length starts at `at`.
const std::uint8_t* member_value(const std::uint8_t* at) {
  length_field key = read_length(at);
  return at + key.bytes + key.value;
}

constexpr std::size_t container_header = 1 + 4 + 4;

// Constant values the readers fall back to: tags and zero counts, nothing else.
constexpr std::uint8_t null_bytes[] = {static_cast<std::uint8_t>(packed_tag::null)};
constexpr std::uint8_t empty_array_bytes[] = {static_cast<std::uint8_t>(packed_tag::array), 0, 0, 0, 0, 0, 0, 0, 0};
constexpr std::uint8_t empty_object_bytes[] = {static_cast<std::uint8_t>(packed_tag::object), 0, 0, 0, 0, 0, 0, 0, 0};

}  // namespace

const packed_value& packed_value::null_value() {
  return at(null_bytes);
}
const packed_value& packed_value::empty_array() {
  return at(empty_array_bytes);
}
const packed_value& packed_value::empty_object() {
  return at(empty_object_bytes);
}

std::size_t packed_value::byte_size() const {
  switch (tag_) {
    case packed_tag::null:
    case packed_tag::boolean_false:
    case packed_tag::boolean_true:
      return 1;
    case packed_tag::signed_integer:
    case packed_tag::unsigned_integer:
    case packed_tag::number:
      return 1 + 8;
    case packed_tag::string: {
      length_field length = read_length(bytes() + 1);
      return 1 + length.bytes + length.value;
    }
    case packed_tag::array:
    case packed_tag::object:
      return container_header + read_u32(bytes() + 5);
  }
  return 1;
}

std::size_t packed_value::size() const {
  switch (tag_) {
    case packed_tag::null:
      return 0;
    case packed_tag::array:
    case packed_tag::object:
      return read_u32(bytes() + 1);
    default:
      return 1;
  }
}

std::string_view packed_value::string_view() const {
  if (tag_ != packed_tag::string) {
    return {};
  }
  length_field length = read_length(bytes() + 1);
  return {reinterpret_cast<const char*>(bytes() + 1 + length.bytes), length.value};
}

std::int64_t packed_value::as_int() const {
  switch (tag_) {
    case packed_tag::signed_integer:
      return read_scalar<std::int64_t>(bytes() + 1);
    case packed_tag::unsigned_integer:
      return static_cast<std::int64_t>(read_scalar<std::uint64_t>(bytes() + 1));
    case packed_tag::number:
      return static_cast<std::int64_t>(read_scalar<double>(bytes() + 1));
    case packed_tag::boolean_true:
      return 1;
    default:
      return 0;
  }
}

double packed_value::as_double() const {
  switch (tag_) {
    case packed_tag::signed_integer:
      return static_cast<double>(read_scalar<std::int64_t>(bytes() + 1));
    case packed_tag::unsigned_integer:
      return static_cast<double>(read_scalar<std::uint64_t>(bytes() + 1));
    case packed_tag::number:
      return read_scalar<double>(bytes() + 1);
    case packed_tag::boolean_true:
      return 1;
    default:
      return 0;
  }
}

const std::uint8_t* packed_value::first_child() const {
  return bytes() + container_header;
}

const std::uint8_t* packed_value::payload_end() const {
  return bytes() + byte_size();
}

const packed_value* packed_value::member(std::string_view key) const {
  if (tag_ != packed_tag::object) {
    return nullptr;
  }
  const std::uint8_t* end = payload_end();
  for (const std::uint8_t* at = first_child(); at < end;) {
    length_field length = read_length(at);
    const std::uint8_t* value = at + length.bytes + length.value;
    if (std::string_view(reinterpret_cast<const char*>(at + length.bytes), length.value) == key) {
      return &packed_value::at(value);
    }
    at = value + packed_value::at(value).byte_size();
  }
  return nullptr;
}

const packed_value* packed_value::element(std::size_t index) const {
  if (tag_ != packed_tag::array || index >= size()) {
    return nullptr;
  }
  const std::uint8_t* at = first_child();
  for (std::size_t i = 0; i < index; ++i) {
    at += packed_value::at(at).byte_size();
  }
  return &packed_value::at(at);
}

const packed_value& packed_value::operator[](std::string_view key) const {
  const packed_value* found = member(key);
  return found != nullptr ? *found : null_value();
}

const packed_value& packed_value::operator[](std::size_t index) const {
  const packed_value* found = element(index);
  return found != nullptr ? *found : null_value();
}

packed_value::const_iterator packed_value::begin() const {
  if (tag_ != packed_tag::array && tag_ != packed_tag::object) {
    return end();
  }
  return const_iterator(first_child(), tag_ == packed_tag::object);
}

packed_value::const_iterator packed_value::end() const {
  if (tag_ != packed_tag::array && tag_ != packed_tag::object) {
    return const_iterator(bytes(), false);  // begin() == end(): a scalar has no elements
  }
  return const_iterator(payload_end(), tag_ == packed_tag::object);
}

const packed_value& packed_value::front() const {
  const packed_value* first = size() > 0 && (is_array() || is_object()) ? &*begin() : nullptr;
  return first != nullptr ? *first : null_value();
}

const packed_value& packed_value::back() const {
  const packed_value* last = nullptr;
  for (const packed_value& element : *this) {
    last = &element;
  }
  return last != nullptr ? *last : null_value();
}

const packed_value& packed_value::const_iterator::operator*() const {
  return packed_value::at(object_values_ ? member_value(at_) : at_);
}

packed_value::const_iterator& packed_value::const_iterator::operator++() {
  const std::uint8_t* value = object_values_ ? member_value(at_) : at_;
  at_ = value + packed_value::at(value).byte_size();
  return *this;
}

packed_value::member_iterator::member_iterator(const std::uint8_t* at, const std::uint8_t* end) : at_(at), end_(end) {
  read();
}

void packed_value::member_iterator::read() {
  current_.reset();
  if (at_ < end_) {
    length_field length = read_length(at_);
    current_.emplace(packed_member{std::string_view(reinterpret_cast<const char*>(at_ + length.bytes), length.value),
                                   packed_value::at(at_ + length.bytes + length.value)});
  }
}

packed_value::member_iterator& packed_value::member_iterator::operator++() {
  const std::uint8_t* value = member_value(at_);
  at_ = value + packed_value::at(value).byte_size();
  read();
  return *this;
}

packed_value::member_iterator packed_value::member_range::begin() const {
  if (!container->is_object()) {
    return end();
  }
  return member_iterator(container->first_child(), container->payload_end());
}

packed_value::member_iterator packed_value::member_range::end() const {
  const std::uint8_t* end = container->is_object() ? container->payload_end() : container->bytes();
  return member_iterator(end, end);
}

std::string packed_value::dump() const {
  json copy = *this;
  return copy.dump();
}

const packed_value& packed_body::root() const {
  return bytes_ ? *reinterpret_cast<const packed_value*>(bytes_.get()) : packed_value::null_value();
}

packed_body::packed_body(const packed_body& other) : size_(other.size_) {
  if (other.bytes_) {
    bytes_ = std::make_unique_for_overwrite<std::uint8_t[]>(size_);
    std::memcpy(bytes_.get(), other.bytes_.get(), size_);
  }
}

packed_body& packed_body::operator=(const packed_body& other) {
  if (this != &other) {
    *this = packed_body(other);
  }
  return *this;
}

void to_json(json& out, const packed_value& value) {
  switch (value.tag()) {
    case packed_tag::null:
      out = nullptr;
      return;
    case packed_tag::boolean_false:
    case packed_tag::boolean_true:
      out = value.as_bool();
      return;
    case packed_tag::signed_integer:
      out = value.as_int();
      return;
    case packed_tag::unsigned_integer:
      out = static_cast<std::uint64_t>(value.as_int());
      return;
    case packed_tag::number:
      out = value.as_double();
      return;
    case packed_tag::string:
      out = std::string(value.string_view());
      return;
    case packed_tag::array:
      out = json::array();
      for (const packed_value& element : value) {
        json converted;
        to_json(converted, element);
        out.push_back(std::move(converted));
      }
      return;
    case packed_tag::object:
      out = json::object();
      for (const auto& [key, member] : value.items()) {
        json converted;
        to_json(converted, member);
        out.get_ref<json::object_t&>().emplace_back(std::string(key), std::move(converted));
      }
      return;
  }
}

packed_body pack(const json& value) {
  packed_writer writer;
  writer.write(value);
  return writer.finish();
}

}  // namespace sextant
