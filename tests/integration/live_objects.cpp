#include "live_objects.hpp"

#include <thread>

#include <catch2/catch.hpp>

#include "test_cluster.hpp"
#include "util/time.hpp"

namespace sextant::integration {

json wait_for(const std::function<json()>& read, const std::function<bool(const json&)>& done,
              std::chrono::seconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  json last = read();
  while (!done(last) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    last = read();
  }
  return last;
}

json get_object(admin_client& admin, const std::string& path) {
  answer got = admin.get(path);
  return got.ok() ? got.body() : json();
}

json create(admin_client& admin, const std::string& collection, const json& object) {
  answer made = admin.post(collection, object);
  INFO("POST " << collection << " " << object.dump().substr(0, 200));
  INFO(made.status << " " << made.text.substr(0, 500) << made.error);
  REQUIRE(made.ok());
  return made.body();
}

json write_status(admin_client& admin, const std::string& collection, json object, const json& status) {
  const std::string target = collection + "/" + string_or(object, {"metadata", "name"}) + "/status";
  object["status"] = status;
  answer written = admin.put(target, object);
  INFO("PUT " << target);
  INFO(written.status << " " << written.text.substr(0, 500) << written.error);
  REQUIRE(written.ok());
  return written.body();
}

std::filesystem::path dump_lists(admin_client& admin, const std::filesystem::path& dir,
                                 const std::vector<std::string>& paths) {
  std::filesystem::create_directories(dir);
  int file = 0;
  for (const std::string& path : paths) {
    answer list = admin.get(path);
    INFO("GET " << path << ": " << list.status << " " << list.text.substr(0, 300));
    REQUIRE(list.ok());
    write_text(dir / ("list-" + std::to_string(file++) + ".json"), list.text);
  }
  return dir;
}

void end_job_pod(admin_client& admin, const std::string& namespace_, const std::string& job, bool succeeded) {
  const std::string pods = "/api/v1/namespaces/" + namespace_ + "/pods";
  json list = wait_for([&] { return get_object(admin, pods + "?labelSelector=job-name%3D" + job); },
                       [](const json& l) { return l.is_object() && !l.value("items", json::array()).empty(); });
  INFO("pods of Job " << namespace_ << "/" << job << ": " << list.dump());
  REQUIRE(!list.value("items", json::array()).empty());
  json pod = list["items"][0];
  pod["status"]["phase"] = succeeded ? "Succeeded" : "Failed";
  json ended = {{"exitCode", succeeded ? 0 : 1}, {"reason", succeeded ? "Completed" : "Error"}};
  pod["status"]["containerStatuses"] = json::array({{{"name", "main"},
                                                     {"image", "registry.k8s.io/pause:3.10"},
                                                     {"imageID", ""},
                                                     {"ready", false},
                                                     {"restartCount", 0},
                                                     {"state", {{"terminated", ended}}}}});
  answer written = admin.put(pods + "/" + pod["metadata"]["name"].get<std::string>() + "/status", pod);
  INFO(written.status << " " << written.text);
  REQUIRE(written.ok());
}

std::string ago(std::chrono::minutes minutes) {
  return format_rfc3339(std::chrono::system_clock::now() - minutes);
}

json condition(const std::string& type, const std::string& status, const std::string& reason,
               const std::string& message, std::chrono::minutes minutes_ago) {
  return json{{"type", type},
              {"status", status},
              {"reason", reason},
              {"message", message},
              {"lastTransitionTime", ago(minutes_ago)}};
}

bool same_members(const json& a, const json& b) {
  return nlohmann::json::parse(a.dump()) == nlohmann::json::parse(b.dump());
}

json condition_of(const json& object, const std::string& type) {
  if (!object.is_object()) {
    return json::object();
  }
  for (const json& c : object.value("status", json::object()).value("conditions", json::array())) {
    if (c.value("type", "") == type) {
      return c;
    }
  }
  return json::object();
}

json kueue_cluster_queue(const std::string& name, const std::string& flavor, const std::string& cpu, bool held) {
  json spec = {
      {"namespaceSelector", json::object()},
      {"resourceGroups",
       json::array(
           {{{"coveredResources", json::array({"cpu"})},
             {"flavors", json::array({{{"name", flavor},
                                       {"resources", json::array({{{"name", "cpu"}, {"nominalQuota", cpu}}})}}})}}})}};
  if (held) {
    spec["stopPolicy"] = "Hold";
  }
  return {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
          {"kind", "ClusterQueue"},
          {"metadata", {{"name", name}}},
          {"spec", spec}};
}

json kueue_workload(const std::string& api_version, const std::string& namespace_, const std::string& name,
                    const std::string& queue) {
  json container = {{"name", "main"}, {"image", "busybox"}, {"resources", {{"requests", {{"cpu", "1"}}}}}};
  return {{"apiVersion", api_version},
          {"kind", "Workload"},
          {"metadata", {{"name", name}, {"namespace", namespace_}}},
          {"spec",
           {{"queueName", queue},
            {"podSets",
             json::array({{{"name", "main"},
                           {"count", 1},
                           {"template", {{"spec", {{"restartPolicy", "Never"}, {"containers", {container}}}}}}}})}}}};
}

}  // namespace sextant::integration
