#include "auth/kube_reviews.hpp"

#include "util/json.hpp"

namespace sextant {
namespace {

std::string dumped(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

// What a failed review says: the transport error, or the status and the Status message.
std::string failure(int status, const std::string& body, const std::string& transport_error) {
  if (status == 0) {
    return transport_error.empty() ? "no answer from the API server" : transport_error;
  }
  std::string message;
  try {
    message = string_or(json::parse(body), {"message"});
  } catch (const json::exception&) {
  }
  return "the API server answered " + std::to_string(status) + (message.empty() ? "" : ": " + message);
}

// The answered review, or nullopt with `message` saying why there is none: no answer, an
// error status, or a body that is not an object.
std::optional<json> review_answer(const char* kind, int status, const std::string& body,
                                  const std::string& transport_error, std::string& message) {
  if (status != 200 && status != 201) {
    message = failure(status, body, transport_error);
    return std::nullopt;
  }
  try {
    json value = json::parse(body);
    if (value.is_object()) {
      return value;
    }
  } catch (const json::exception&) {
  }
  message = std::string("the API server's ") + kind + " answer is not a JSON object";
  return std::nullopt;
}

}  // namespace

std::string token_review_body(const std::string& token) {
  return dumped({{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "TokenReview"}, {"spec", {{"token", token}}}});
}

token_verdict read_token_review(int status, const std::string& body, const std::string& transport_error) {
  token_verdict verdict;
  std::optional<json> review = review_answer("TokenReview", status, body, transport_error, verdict.message);
  if (!review) {
    return verdict;
  }
  verdict.answered = true;
  verdict.authenticated = get_bool(*review, {"status", "authenticated"}).value_or(false);
  verdict.message = string_or(*review, {"status", "error"});
  if (!verdict.authenticated) {
    return verdict;
  }
  verdict.who.user = string_or(*review, {"status", "user", "username"});
  verdict.who.uid = string_or(*review, {"status", "user", "uid"});
  for (const json& group : array_or_empty(*review, {"status", "user", "groups"})) {
    if (group.is_string()) {
      verdict.who.groups.push_back(group.get<std::string>());
    }
  }
  for (const auto& [name, values] : object_or_empty(*review, {"status", "user", "extra"}).items()) {
    std::vector<std::string>& out = verdict.who.extra[name];
    if (values.is_array()) {
      for (const json& value : values) {
        if (value.is_string()) {
          out.push_back(value.get<std::string>());
        }
      }
    }
  }
  if (verdict.who.user.empty()) {
    // Authenticated as nobody in particular: nothing to authorize against.
    verdict.authenticated = false;
    verdict.message = "the API server authenticated the token but named no user";
  }
  return verdict;
}

std::string access_review_body(const caller& who, const access_check& check) {
  json spec = {{"user", who.user}, {"groups", who.groups}};
  if (!who.uid.empty()) {
    spec["uid"] = who.uid;
  }
  if (!who.extra.empty()) {
    spec["extra"] = who.extra;
  }
  if (check.non_resource()) {
    spec["nonResourceAttributes"] = {{"path", check.path}, {"verb", check.verb}};
  } else {
    json attributes = {{"verb", check.verb}, {"group", check.group}, {"resource", check.resource}};
    if (!check.subresource.empty()) {
      attributes["subresource"] = check.subresource;
    }
    if (!check.namespace_.empty()) {
      attributes["namespace"] = check.namespace_;
    }
    if (!check.name.empty()) {
      attributes["name"] = check.name;
    }
    spec["resourceAttributes"] = std::move(attributes);
  }
  return dumped({{"apiVersion", "authorization.k8s.io/v1"}, {"kind", "SubjectAccessReview"}, {"spec", spec}});
}

access_verdict read_access_review(int status, const std::string& body, const std::string& transport_error) {
  access_verdict verdict;
  std::optional<json> review = review_answer("SubjectAccessReview", status, body, transport_error, verdict.message);
  if (!review) {
    return verdict;
  }
  // Denied unless the server says allowed (and not also denied).
  const bool allowed = get_bool(*review, {"status", "allowed"}).value_or(false);
  const bool denied = get_bool(*review, {"status", "denied"}).value_or(false);
  verdict.allowed = allowed && !denied;
  verdict.message = string_or(*review, {"status", "reason"});
  return verdict;
}

}  // namespace sextant
