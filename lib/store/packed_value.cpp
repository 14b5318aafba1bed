#include "store/packed_value.hpp"

#include <cstring>

#include "store/packed_vocabulary.hpp"
#include "store/packed_writer.hpp"
#include "store/varint.hpp"

namespace sextant {
namespace {

template <typename T>
T read_scalar(const std::uint8_t* at) {
  T value{};
  std::memcpy(&value, at, sizeof value);
  return value;
}

// A text (a key or a string's value) and the bytes it took.
struct text_field {
  std::string_view text;
  std::size_t bytes;
};

text_field read_text(const std::uint8_t* at) {
  const std::uint8_t first = *at;
  if (first < packed_first_word) {
    return {{reinterpret_cast<const char*>(at + 1), first}, 1 + std::size_t{first}};
  }
  if (first != packed_long_text) {
    return {vocabulary_word(first - packed_first_word), 1};
  }
  const auto length = read_scalar<std::uint32_t>(at + 1);
  return {{reinterpret_cast<const char*>(at + 5), length}, 5 + std::size_t{length}};
}

// The value of the member whose key starts at `at`.
const std::uint8_t* member_value(const std::uint8_t* at) {
  return at + read_text(at).bytes;
}

// What follows a container's tag: its count, then its payload's size.
struct container_header {
  std::size_t count;
  std::size_t payload;
  std::size_t bytes;  // of the two varints
};

container_header read_header(const std::uint8_t* after_tag) {
  decoded_varint count = decode_varint(after_tag);
  decoded_varint payload = decode_varint(after_tag + count.bytes);
  return {static_cast<std::size_t>(count.value), static_cast<std::size_t>(payload.value), count.bytes + payload.bytes};
}

std::int64_t unzigzag(std::uint64_t value) {
  return static_cast<std::int64_t>(value >> 1) ^ -static_cast<std::int64_t>(value & 1);
}

// Constant values the readers fall back to: tags and zero counts, nothing else.
constexpr std::uint8_t null_bytes[] = {static_cast<std::uint8_t>(packed_tag::null)};
constexpr std::uint8_t empty_array_bytes[] = {static_cast<std::uint8_t>(packed_tag::array), 0, 0};
constexpr std::uint8_t empty_object_bytes[] = {static_cast<std::uint8_t>(packed_tag::object), 0, 0};

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
      return 1 + decode_varint(bytes() + 1).bytes;
    case packed_tag::number:
      return 1 + sizeof(double);
    case packed_tag::string:
      return 1 + read_text(bytes() + 1).bytes;
    case packed_tag::array:
    case packed_tag::object: {
      container_header header = read_header(bytes() + 1);
      return 1 + header.bytes + header.payload;
    }
  }
  return 1;
}

std::size_t packed_value::size() const {
  switch (tag_) {
    case packed_tag::null:
      return 0;
    case packed_tag::array:
    case packed_tag::object:
      return read_header(bytes() + 1).count;
    default:
      return 1;
  }
}

std::string_view packed_value::string_view() const {
  if (tag_ != packed_tag::string) {
    return {};
  }
  return read_text(bytes() + 1).text;
}

std::int64_t packed_value::as_int() const {
  switch (tag_) {
    case packed_tag::signed_integer:
      return unzigzag(decode_varint(bytes() + 1).value);
    case packed_tag::unsigned_integer:
      return static_cast<std::int64_t>(decode_varint(bytes() + 1).value);
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
      return static_cast<double>(unzigzag(decode_varint(bytes() + 1).value));
    case packed_tag::unsigned_integer:
      return static_cast<double>(decode_varint(bytes() + 1).value);
    case packed_tag::number:
      return read_scalar<double>(bytes() + 1);
    case packed_tag::boolean_true:
      return 1;
    default:
      return 0;
  }
}

const std::uint8_t* packed_value::first_child() const {
  return bytes() + 1 + read_header(bytes() + 1).bytes;
}

const std::uint8_t* packed_value::payload_end() const {
  return bytes() + byte_size();
}

const packed_value* packed_value::member(std::string_view key) const {
  if (tag_ != packed_tag::object) {
    return nullptr;
  }
  // The header once: payload_end() and first_child() would each decode it again.
  const container_header header = read_header(bytes() + 1);
  const std::uint8_t* at = bytes() + 1 + header.bytes;
  for (const std::uint8_t* end = at + header.payload; at < end;) {
    text_field name = read_text(at);
    const std::uint8_t* value = at + name.bytes;
    if (name.text == key) {
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
    text_field name = read_text(at_);
    current_.emplace(packed_member{name.text, packed_value::at(at_ + name.bytes)});
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
