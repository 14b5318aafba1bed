#include "api/gzip_body.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <zlib.h>

namespace sextant {

struct gzip_body::stream {
  z_stream z{};
};

gzip_body::gzip_body(std::shared_ptr<const std::string> input)
    : stream_(std::make_unique<stream>()), input_(std::move(input)) {
  // Level 1: lists are repetitive JSON, so the fastest level already shrinks them ~10x, and
  // the time goes to serving, not squeezing. 15 + 16: a gzip header, not a zlib one.
  if (deflateInit2(&stream_->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("zlib: deflateInit2 failed");
  }
  output_.reserve(input_->size() / 6 + 64);
}

gzip_body::~gzip_body() {
  deflateEnd(&stream_->z);
}

bool gzip_body::step(std::size_t slice) {
  if (result_) {
    return true;
  }
  z_stream& z = stream_->z;
  const std::size_t take = std::min(slice, input_->size() - offset_);
  const bool last = offset_ + take == input_->size();
  // zlib's API takes a non-const pointer but does not write through next_in.
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input_->data() + offset_));
  z.avail_in = static_cast<uInt>(take);
  offset_ += take;
  int result = Z_OK;
  do {
    char buffer[64 * 1024];
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    result = deflate(&z, last ? Z_FINISH : Z_NO_FLUSH);
    if (result == Z_STREAM_ERROR) {
      throw std::runtime_error("zlib: deflate failed");
    }
    output_.append(buffer, sizeof buffer - z.avail_out);
  } while (z.avail_out == 0 || (last && result != Z_STREAM_END));
  if (last) {
    result_ = std::make_shared<const std::string>(std::move(output_));
    return true;
  }
  return false;
}

std::string gzip_all(const std::string& input) {
  gzip_body body(std::make_shared<const std::string>(input));
  while (!body.step(std::size_t{1} << 30)) {
  }
  return *body.result();
}

bool accepts_gzip(const std::string& accept_encoding) {
  std::string header = accept_encoding;
  std::transform(header.begin(), header.end(), header.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::size_t start = 0;
  while (start < header.size()) {
    std::size_t comma = header.find(',', start);
    std::string coding = header.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? header.size() : comma + 1;
    std::string name = coding.substr(0, coding.find(';'));
    name.erase(std::remove(name.begin(), name.end(), ' '), name.end());
    if (name != "gzip" && name != "*") {
      continue;
    }
    auto q = coding.find("q=");
    if (q != std::string::npos) {
      double weight = std::atof(coding.c_str() + q + 2);
      if (weight <= 0) {
        return false;
      }
    }
    return true;
  }
  return false;
}

}  // namespace sextant
