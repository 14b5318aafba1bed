#pragma once
// What the live tests do to the test API server as a user, a kubelet or a controller would:
// create objects, write their status, read them back, and wait for a controller's answer.
// Failures stop the test (REQUIRE) with the server's words.
#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "admin_client.hpp"
#include "util/json.hpp"

namespace sextant::integration {

// Polls `read` every 250 ms until `done` holds for what it returned, or `limit` passes; returns
// the last read, so the test's checks then show what was seen.
json wait_for(const std::function<json()>& read, const std::function<bool(const json&)>& done,
              std::chrono::seconds limit = std::chrono::seconds(90));

// The object at `path`, or null when the server does not answer 2xx.
json get_object(admin_client& admin, const std::string& path);

// POSTs `object` to `collection`; returns what the server stored.
json create(admin_client& admin, const std::string& collection, const json& object);

// Writes `status` through the object's /status subresource, as a kubelet or a controller would;
// returns what the server stored.
json write_status(admin_client& admin, const std::string& collection, json object, const json& status);

// Writes what the server lists at each path into `dir`, one file a list, as `kubectl get -o
// json` would dump them: a snapshot of the same objects for the daemon's --snapshot mode.
// Name the CRDs' path too, so that the snapshot serves the kinds the server serves.
std::filesystem::path dump_lists(admin_client& admin, const std::filesystem::path& dir,
                                 const std::vector<std::string>& paths);

// Waits for the Job controller's pod of Job `job` in `namespace_`, then ends it as a kubelet
// would: Succeeded (its container "main" exited 0, Completed) or Failed (exited 1, Error).
void end_job_pod(admin_client& admin, const std::string& namespace_, const std::string& job, bool succeeded);

// Kueue objects the tests create: a Cluster Queue of one flavor with `cpu` of quota (held: with
// stopPolicy Hold), and a Workload of one pod asking 1 cpu, in `api_version`
// ("kueue.x-k8s.io/v1beta2").
json kueue_cluster_queue(const std::string& name, const std::string& flavor, const std::string& cpu, bool held);
json kueue_workload(const std::string& api_version, const std::string& namespace_, const std::string& name,
                    const std::string& queue);

// A time `minutes` before now, as RFC 3339: what a controller wrote that long ago.
std::string ago(std::chrono::minutes minutes);

// A status condition as controllers write it, its transition `minutes_ago`.
json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, std::chrono::minutes minutes_ago);

// Whether two documents hold the same members, whatever their order (the API server writes a
// custom resource's members sorted; the tests write theirs in their own order).
bool same_members(const json& a, const json& b);

// The condition of that type in what a controller wrote (status.conditions), or an empty
// object when there is none or `object` is not an object.
json condition_of(const json& object, const std::string& type);

}  // namespace sextant::integration
