#pragma once
// Who is asking: the identity the API server's TokenReview gave a bearer token. Authorization
// asks about this identity (SubjectAccessReview), never about the daemon's own.
#include <map>
#include <string>
#include <vector>

namespace sextant {

struct caller {
  std::string user;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;
  friend bool operator==(const caller&, const caller&) = default;
};

}  // namespace sextant
