#pragma once
// Gzip (RFC 1952) of a response body, in slices: a 2 MB list compresses in about twenty
// milliseconds, so it is deflated a slice at a time and the event loop serves other requests
// in between. Compressed once per rendered body and cached beside it.
#include <cstddef>
#include <memory>
#include <string>

namespace sextant {

class gzip_body {
 public:
  explicit gzip_body(std::shared_ptr<const std::string> input);
  ~gzip_body();
  gzip_body(const gzip_body&) = delete;
  gzip_body& operator=(const gzip_body&) = delete;

  // Compresses up to `slice` more input bytes; true once the whole body is compressed.
  bool step(std::size_t slice = 128 * 1024);
  // The compressed bytes, once done.
  std::shared_ptr<const std::string> result() const { return result_; }

 private:
  struct stream;
  std::unique_ptr<stream> stream_;
  std::shared_ptr<const std::string> input_;
  std::size_t offset_ = 0;
  std::string output_;
  std::shared_ptr<const std::string> result_;
};

// The whole body at once (small bodies, and tests).
std::string gzip_all(const std::string& input);

// Whether an Accept-Encoding header accepts gzip (a q=0 refuses it).
bool accepts_gzip(const std::string& accept_encoding);

}  // namespace sextant
