#include "store/packed_writer.hpp"

#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "store/packed_vocabulary.hpp"
#include "store/varint.hpp"

namespace sextant {

void packed_writer::put_tag(packed_tag tag) {
  buffer_.push_back(static_cast<char>(tag));
}

void packed_writer::put_text(std::string_view text) {
  if (std::optional<std::size_t> word = vocabulary_index(text)) {
    buffer_.push_back(static_cast<char>(packed_first_word + *word));
    return;
  }
  if (text.size() < packed_first_word) {
    buffer_.push_back(static_cast<char>(text.size()));
  } else {
    if (text.size() > std::numeric_limits<std::uint32_t>::max()) {
      throw std::length_error("packed value: a string longer than 4 GiB");
    }
    buffer_.push_back(static_cast<char>(packed_long_text));
    put_scalar(static_cast<std::uint32_t>(text.size()));
  }
  buffer_.append(text);
}

void packed_writer::put_varint(std::uint64_t value) {
  char bytes[10];
  buffer_.append(bytes, encode_varint(value, bytes));
}

template <typename T>
void packed_writer::put_scalar(T value) {
  char bytes[sizeof value];
  std::memcpy(bytes, &value, sizeof value);
  buffer_.append(bytes, sizeof value);
}

void packed_writer::value_written() {
  // A member counts when its key is written; an element when its value is.
  if (!open_.empty() && static_cast<packed_tag>(buffer_[open_.back().header]) == packed_tag::array) {
    ++open_.back().count;
  }
}

void packed_writer::null() {
  value_written();
  put_tag(packed_tag::null);
}

void packed_writer::boolean(bool value) {
  value_written();
  put_tag(value ? packed_tag::boolean_true : packed_tag::boolean_false);
}

void packed_writer::signed_integer(std::int64_t value) {
  value_written();
  put_tag(packed_tag::signed_integer);
  // Zigzag: small magnitudes of either sign take small varints.
  put_varint((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
}

void packed_writer::unsigned_integer(std::uint64_t value) {
  value_written();
  put_tag(packed_tag::unsigned_integer);
  put_varint(value);
}

void packed_writer::number(double value) {
  value_written();
  put_tag(packed_tag::number);
  put_scalar(value);
}

void packed_writer::string(std::string_view value) {
  value_written();
  put_tag(packed_tag::string);
  put_text(value);
}

// Room for a count and a payload size below 128 each, one byte apiece: most containers of an
// object. Larger ones make room when they close.
constexpr std::size_t reserved_header = 2;

void packed_writer::begin_container(packed_tag tag) {
  value_written();
  open_.push_back({buffer_.size(), 0});
  put_tag(tag);
  buffer_.append(reserved_header, '\0');  // the count and payload size, known when it closes
}

void packed_writer::end_container() {
  open_container closing = open_.back();
  open_.pop_back();
  const std::size_t payload_at = closing.header + 1 + reserved_header;
  const std::size_t payload = buffer_.size() - payload_at;
  if (payload > std::numeric_limits<std::uint32_t>::max()) {
    throw std::length_error("packed value: a container larger than 4 GiB");
  }
  char header[10];
  std::size_t used = encode_varint(closing.count, header);
  used += encode_varint(payload, header + used);
  if (used > reserved_header) {
    // The payload moves up by the bytes missing: a copy of it per large container.
    buffer_.insert(payload_at, used - reserved_header, '\0');
  }
  std::memcpy(buffer_.data() + closing.header + 1, header, used);
}

void packed_writer::begin_array() {
  begin_container(packed_tag::array);
}

void packed_writer::end_array() {
  end_container();
}

void packed_writer::begin_object() {
  begin_container(packed_tag::object);
}

void packed_writer::key(std::string_view key) {
  ++open_.back().count;
  put_text(key);
}

void packed_writer::end_object() {
  end_container();
}

void packed_writer::write(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
    case json::value_t::discarded:
    case json::value_t::binary:
      null();
      return;
    case json::value_t::boolean:
      boolean(value.get<bool>());
      return;
    case json::value_t::number_integer:
      signed_integer(value.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      unsigned_integer(value.get<std::uint64_t>());
      return;
    case json::value_t::number_float:
      number(value.get<double>());
      return;
    case json::value_t::string:
      string(value.get_ref<const std::string&>());
      return;
    case json::value_t::array:
      begin_array();
      for (const json& element : value) {
        write(element);
      }
      end_array();
      return;
    case json::value_t::object:
      begin_object();
      for (const auto& [name, member] : value.items()) {
        key(name);
        write(member);
      }
      end_object();
      return;
  }
}

void packed_writer::write(const packed_value& value) {
  // A packed value is position-independent: its bytes copy as they are.
  value_written();
  buffer_.append(reinterpret_cast<const char*>(&value), value.byte_size());
}

packed_body packed_writer::finish() {
  if (!open_.empty() || buffer_.empty()) {
    throw std::logic_error("packed value: finish() before the value is complete");
  }
  auto bytes = std::make_unique_for_overwrite<std::uint8_t[]>(buffer_.size());
  std::memcpy(bytes.get(), buffer_.data(), buffer_.size());
  packed_body body(std::move(bytes), buffer_.size());
  buffer_.clear();
  return body;
}

void packed_writer::reset() {
  buffer_.clear();
  open_.clear();
}

}  // namespace sextant
