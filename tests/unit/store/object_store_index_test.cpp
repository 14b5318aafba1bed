#include <algorithm>
#include <map>
#include <set>

#include <catch2/catch.hpp>

#include "store/object_store.hpp"

using namespace sextant;

namespace {

const kind_key pod_type{"", "Pod"};

// A Pod of `namespace_`, owned by `owner_uid`, labelled job-name=`job`.
object_ptr owned_pod(const std::string& namespace_, const std::string& name, const std::string& owner_uid,
                     const std::string& job, const std::string& resource_version = "1") {
  json body = {{"apiVersion", "v1"},
               {"kind", "Pod"},
               {"metadata",
                {{"name", name},
                 {"namespace", namespace_},
                 {"uid", namespace_ + "-" + name},
                 {"resourceVersion", resource_version},
                 {"labels", {{"job-name", job}}},
                 {"ownerReferences", json::array({{{"uid", owner_uid}, {"kind", "Job"}, {"name", job}}})}}}};
  return make_object(body, {}, nullptr);
}

std::vector<std::string> names_of(const std::vector<object_ptr>& objects) {
  std::vector<std::string> out;
  for (const object_ptr& object : objects) {
    out.push_back(object->key());
  }
  return out;
}

// What the store should answer, kept by hand: key -> (owner uid, job label).
struct expected_pods {
  std::map<std::string, std::pair<std::string, std::string>> by_key;

  std::vector<std::string> owned_by(const std::string& owner_uid) const {
    std::vector<std::string> out;
    for (const auto& [key, marks] : by_key) {
      if (marks.first == owner_uid) {
        out.push_back(key);
      }
    }
    return out;  // std::map orders keys as the store orders objects ("namespace/name")
  }
  std::vector<std::string> labelled(const std::string& job) const {
    std::vector<std::string> out;
    for (const auto& [key, marks] : by_key) {
      if (marks.second == job) {
        out.push_back(key);
      }
    }
    return out;
  }
};

}  // namespace

// The store's order and its owner and label indexes are B-trees, whose erase moves entries
// between nodes: a removal must leave every other entry under the same owner or label in place,
// however many share it (hundreds of Pods of one Job span many nodes).
TEST_CASE("removing and replacing objects that share an owner keeps every index whole", "[store]") {
  object_store store;
  store.index_label(pod_type, "job-name");
  expected_pods expected;
  const std::vector<std::string> owners = {"uid-job-a", "uid-job-b", "uid-job-c"};
  for (int i = 0; i < 600; ++i) {
    const std::string namespace_ = "team-" + std::to_string(i % 4);
    const std::string name = "pod-" + std::to_string(1000 + i);
    const std::string& owner = owners[static_cast<std::size_t>(i) % owners.size()];
    const std::string job = "job-" + owner.substr(8);
    store.upsert(owned_pod(namespace_, name, owner, job));
    expected.by_key[namespace_ + "/" + name] = {owner, job};
  }
  // Remove every third object, in an order that is neither the insert order nor the key order.
  for (int i = 599; i >= 0; i -= 3) {
    const std::string namespace_ = "team-" + std::to_string(i % 4);
    const std::string name = "pod-" + std::to_string(1000 + i);
    REQUIRE(store.remove(pod_type, namespace_, name));
    expected.by_key.erase(namespace_ + "/" + name);
  }
  // Move some of the rest to another owner and label: each a modification in place.
  for (int i = 1; i < 600; i += 7) {
    const std::string namespace_ = "team-" + std::to_string(i % 4);
    const std::string name = "pod-" + std::to_string(1000 + i);
    if (!expected.by_key.contains(namespace_ + "/" + name)) {
      continue;
    }
    store.upsert(owned_pod(namespace_, name, "uid-job-d", "job-d", "2"));
    expected.by_key[namespace_ + "/" + name] = {"uid-job-d", "job-d"};
  }

  CHECK(store.count(pod_type) == expected.by_key.size());
  std::vector<std::string> all;
  for (const auto& [key, marks] : expected.by_key) {
    all.push_back(key);
  }
  CHECK(names_of(store.list(pod_type)) == all);
  for (const std::string& owner : {"uid-job-a", "uid-job-b", "uid-job-c", "uid-job-d"}) {
    INFO(owner);
    CHECK(names_of(store.owned_by(pod_type, owner)) == expected.owned_by(owner));
    const std::string job = "job-" + std::string(owner).substr(8);
    CHECK(names_of(store.with_label(pod_type, "job-name", job)) == expected.labelled(job));
  }
  std::vector<std::string> team_2;
  for (const std::string& key : all) {
    if (key.starts_with("team-2/")) {
      team_2.push_back(key);
    }
  }
  CHECK(names_of(store.list(pod_type, "team-2")) == team_2);

  // A relist that keeps half: the rest go, from every index.
  std::vector<object_ptr> kept;
  for (const object_ptr& object : store.list(pod_type)) {
    if (object->name.back() % 2 == 0) {
      kept.push_back(object);
    }
  }
  const std::size_t kept_count = kept.size();
  store.replace_all(pod_type, std::move(kept));
  CHECK(store.count(pod_type) == kept_count);
  std::size_t owned = 0;
  for (const std::string& owner : {"uid-job-a", "uid-job-b", "uid-job-c", "uid-job-d"}) {
    for (const object_ptr& object : store.owned_by(pod_type, owner)) {
      CHECK(object->name.back() % 2 == 0);
      ++owned;
    }
  }
  CHECK(owned == kept_count);
}
