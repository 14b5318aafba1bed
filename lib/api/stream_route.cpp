#include "api/api_router.hpp"

#include <algorithm>
#include <set>

#include <spdlog/spdlog.h>

#include "api/answer_key.hpp"
#include "api/gzip_body.hpp"
#include "api/list_query.hpp"
#include "api/resource_views.hpp"
#include "api/route_answers.hpp"
#include "api/view_cache.hpp"
#include "util/masking/view_strings.hpp"
#include "util/object_names.hpp"

namespace sextant {

// A streaming route (/api/v1/{section}/{resource}/{namespace}/{name}/{segment}): the section plans
// from the cache what to stream, and the answer's body is the daemon's streamer running that plan.
// Never cached: its body is read from the cluster as it is sent.
api_response api_router::stream_route(const api_request& request, const parsed_target& target, const section& owner,
                                      const streaming_route& stream) {
  if (request.method != "GET") {
    return method_not_allowed(request.method, "GET");
  }
  if (auto bad = only_params(target, stream.parameters)) {
    return *bad;
  }
  const std::string& namespace_ = target.segments[4];
  const std::string& name = target.segments[5];
  if (!valid_namespace(namespace_)) {
    return error_response(400, "BadRequest", "\"" + namespace_ + "\" is not a valid namespace name");
  }
  if (!valid_name(name)) {
    return error_response(400, "BadRequest", "\"" + name + "\" is not a valid object name");
  }
  if (access_) {
    // The caller must be let read the object and the logs themselves, as `kubectl logs` would.
    resource_match shown = state_.catalog.find_resource(owner.id, stream.resource);
    const std::string& read = stream.reads.resource;
    const std::size_t slash = read.find('/');
    std::vector<access_check> needed{
        access_check::on_resource(stream.reads.verb, stream.reads.group, read.substr(0, slash), namespace_,
                                  slash == std::string::npos ? std::string() : read.substr(slash + 1))};
    if (shown.resource != nullptr) {
      needed.insert(needed.begin(),
                    access_check::on_resource("get", shown.resource->type.group, shown.resource->plural, namespace_));
    }
    // Both asked in one round: each `may` notes what it cannot decide yet.
    std::vector<std::optional<bool>> allowed;
    for (const access_check& check : needed) {
      allowed.push_back(access_->may(check));
    }
    for (std::size_t i = 0; i < needed.size(); ++i) {
      if (allowed[i] && !*allowed[i]) {
        return error_response(403, "Forbidden", access_->who().user + " may not " + needed[i].words());
      }
    }
    if (std::find(allowed.begin(), allowed.end(), std::nullopt) != allowed.end()) {
      return undecided();
    }
  }
  if (!state_.source->serves_pod_logs()) {
    return error_response(
        404, "NotServed",
        "a snapshot holds no logs: they are read from a live cluster's API server as they are asked for");
  }
  stream_answer answer;
  try {
    answer = stream.open(stream_request{namespace_, name, target.query}, state_.context());
  } catch (const std::exception& error) {
    state_.interpreter_failed(owner.id, stream.resource, "stream", error.what());
    return error_response(500, "InternalError", "the request could not be answered: " + std::string(error.what()));
  }
  if (answer.status >= 400) {
    return error_response(answer.status, answer.reason.empty() ? "NotFound" : answer.reason, answer.message);
  }
  api_response response;
  response.content_type = "text/plain; charset=utf-8";
  response.stream = state_.source->pod_logs(std::move(answer.logs));
  return response;
}

}  // namespace sextant
