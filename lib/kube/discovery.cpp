#include "kube/discovery.hpp"

#include "kube/api_status.hpp"

namespace sextant::kube {

namespace {

struct fetched {
  std::optional<json> body;
  std::string content_type;
  std::string error;
  std::optional<std::chrono::seconds> retry_after{};
};

net::awaitable<fetched> fetch(api_client& client, const std::string& path, const char* accept) {
  request_options options;
  options.accept = accept;
  options.verb = "get";
  options.timeout = std::chrono::seconds(60);
  http_reply reply = co_await client.get(path, options);
  fetched out;
  if (reply.status != 200) {
    const api_error refused = reply_error(reply.status, reply.body, reply.retry_after, reply.error);
    out.error = "GET " + path + ": " + refused.describe();
    out.retry_after = refused.retry_after;
    co_return out;
  }
  json body = json::parse(reply.body, nullptr, false);
  if (body.is_discarded()) {
    out.error = "GET " + path + ": the answer is not JSON";
    co_return out;
  }
  out.body = std::move(body);
  out.content_type = reply.content_type;
  co_return out;
}

}  // namespace

net::awaitable<discovery_outcome> discover(api_client& client) {
  discovery_document document;
  fetched core = co_await fetch(client, "/api", aggregated_discovery_accept);
  if (!core.body) {
    co_return discovery_outcome{std::nullopt, core.error, core.retry_after};
  }
  if (core.content_type.find("as=APIGroupDiscoveryList") != std::string::npos) {
    fetched groups = co_await fetch(client, "/apis", aggregated_discovery_accept);
    if (!groups.body) {
      co_return discovery_outcome{std::nullopt, groups.error, groups.retry_after};
    }
    // /api names the core group "" (or not at all): the parser takes a missing name as "".
    parse_aggregated_discovery(*core.body, document);
    parse_aggregated_discovery(*groups.body, document);
  } else {
    for (const std::string& version : [&] {
           std::vector<std::string> out;
           for (const json& v : array_or_empty(*core.body, {"versions"})) {
             if (v.is_string()) {
               out.push_back(v.get<std::string>());
             }
           }
           return out;
         }()) {
      fetched resources = co_await fetch(client, "/api/" + version, "application/json");
      if (!resources.body) {
        co_return discovery_outcome{std::nullopt, resources.error, resources.retry_after};
      }
      parse_resource_list(*resources.body, "", version, document);
    }
    fetched groups = co_await fetch(client, "/apis", "application/json");
    if (!groups.body) {
      co_return discovery_outcome{std::nullopt, groups.error, groups.retry_after};
    }
    parse_group_list(*groups.body, document);
    const std::vector<discovered_group> listed = document.groups;
    for (const discovered_group& group : listed) {
      if (group.name.empty()) {
        continue;
      }
      bool failed = false;
      for (const std::string& version : group.versions) {
        fetched resources = co_await fetch(client, "/apis/" + group.name + "/" + version, "application/json");
        if (!resources.body) {
          failed = true;  // an aggregated API server that is down: keep what was known
          continue;
        }
        parse_resource_list(*resources.body, group.name, version, document);
      }
      if (failed) {
        document.incomplete_groups.push_back(group.name);
      }
    }
  }
  fetched version = co_await fetch(client, "/version", "application/json");
  if (version.body) {
    document.server_minor = parse_server_minor(*version.body);
  }
  co_return discovery_outcome{std::move(document), {}};
}

}  // namespace sextant::kube
