#pragma once
// One question to the API server's authorizer: may this caller do `verb` on a resource (in a
// namespace, or cluster-wide when the namespace is empty) or on a non-resource URL?
#include <string>

#include "auth/caller.hpp"

namespace sextant {

struct access_check {
  std::string verb;
  std::string group;
  std::string resource;
  std::string subresource;
  std::string namespace_;  // empty: the whole cluster (cluster-scoped kinds, or all namespaces)
  std::string name;
  std::string path;  // set for a non-resource URL ("/metrics"); then the resource fields are empty

  static access_check on_resource(std::string verb, std::string group, std::string resource,
                                  std::string namespace_ = {}, std::string subresource = {});
  static access_check on_path(std::string verb, std::string path);

  bool non_resource() const { return !path.empty(); }
  // "list workloads in team-a", "get pods/log in team-b", "list clusterqueues", "put /metrics"
  std::string words() const;
  friend bool operator==(const access_check&, const access_check&) = default;
};

// The cache key of a decision: the whole question, then the caller (user, groups, uid, extra).
// The question comes first so that keys of one caller part early in a sorted cache: a caller's
// part is the same in all its keys, and often hundreds of bytes long (a service account's groups
// and extra values).
std::string access_key(const caller& who, const access_check& check);
// The same in two steps, for a caller asking many questions: its part once, then each question.
std::string caller_key(const caller& who);
std::string access_key(const std::string& caller_part, const access_check& check);

}  // namespace sextant
