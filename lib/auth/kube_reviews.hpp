#pragma once
// The two reviews the daemon asks the API server for, as bodies and answers: a TokenReview
// (who holds this bearer token?) and a SubjectAccessReview (may that caller do this?). Pure:
// the authenticator and authorizer send them through the kube API client.
#include <optional>
#include <string>

#include "auth/access_check.hpp"
#include "auth/caller.hpp"

namespace sextant {

inline constexpr const char* token_review_path = "/apis/authentication.k8s.io/v1/tokenreviews";
inline constexpr const char* access_review_path = "/apis/authorization.k8s.io/v1/subjectaccessreviews";

std::string token_review_body(const std::string& token);

struct token_verdict {
  bool answered = false;       // false: no usable answer (network, 5xx, 403 to the daemon); not cached
  bool authenticated = false;  // the server knows the token
  caller who;
  std::string message;  // why not: the server's words, or what went wrong
};
// `status` 0 means no HTTP answer; `transport_error` then says why.
token_verdict read_token_review(int status, const std::string& body, const std::string& transport_error);

std::string access_review_body(const caller& who, const access_check& check);

struct access_verdict {
  std::optional<bool> allowed;  // nullopt: no usable answer; not cached
  std::string message;
};
access_verdict read_access_review(int status, const std::string& body, const std::string& transport_error);

}  // namespace sextant
