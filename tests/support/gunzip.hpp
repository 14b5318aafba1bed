#pragma once
// Inflates a gzip body as a client would, so that tests can compare it with the plain answer.
#include <string>

namespace sextant::testing {

// The bytes `data` holds gzipped; fails the running test when they are not one whole gzip stream.
std::string gunzip(const std::string& data);

}  // namespace sextant::testing
