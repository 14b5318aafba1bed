// A snapshot's `*List` JSON files are read item by item through the kinds' profiles, as live
// lists are, and give the same cached objects as the same objects read one by one.
#include <catch2/catch.hpp>

#include "app/section_catalog.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "support/fixtures.hpp"

using namespace sextant;

namespace {

const char* pod_item = R"({"metadata":{"name":"p1","namespace":"ml","uid":"u1","resourceVersion":"5",
  "labels":{"app":"train"},"managedFields":[{"manager":"kubelet","operation":"Update","fieldsV1":{"f:status":{}}}]},
  "spec":{"nodeName":"n1","containers":[{"name":"c","image":"i","resources":{"requests":{"nvidia.com/gpu":"1"}}}]},
  "status":{"phase":"Running","podIP":"10.0.0.1"}})";

struct loaded {
  ingest_profiles profiles{section_catalog(all_sections()).profiles()};
  object_store store;
  served_kinds served;
  snapshot_report report;

  explicit loaded(const std::string& text) {
    snapshot_loader loader(store, served, profiles, testing::at("2026-11-29T12:00:00Z"));
    loader.load_text("pods.json", text, true, report);
  }
};

}  // namespace

TEST_CASE("a typed List file is read through the profiles, like the same objects one by one", "[snapshot]") {
  loaded list(std::string(R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[)") +
              pod_item + "]}");
  std::string single_text = pod_item;
  single_text.insert(1, R"("apiVersion":"v1","kind":"Pod",)");
  loaded single(single_text);
  REQUIRE(list.report.errors.empty());
  REQUIRE(single.report.errors.empty());
  CHECK(list.report.objects_loaded == 1);
  object_ptr from_list = list.store.get({"", "Pod"}, "ml", "p1");
  object_ptr alone = single.store.get({"", "Pod"}, "ml", "p1");
  REQUIRE(from_list);
  REQUIRE(alone);
  CHECK(from_list->api_version == "v1");
  // The same members; a typed list adds apiVersion and kind last.
  CHECK(nlohmann::json::parse(from_list->body().dump()) == nlohmann::json::parse(alone->body().dump()));
  CHECK_FALSE(from_list->body()["metadata"].contains("managedFields"));
  CHECK(list.served.serves({"", "Pod"}));
}

TEST_CASE("a mixed List names each item's kind; a broken list is reported with its line", "[snapshot]") {
  loaded mixed(std::string(R"({"apiVersion":"v1","items":[{"apiVersion":"v1","kind":"Pod",)") +
               std::string(pod_item).substr(1) + R"(,{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"}}],)" +
               R"("kind":"List","metadata":{}})");
  REQUIRE(mixed.report.errors.empty());
  CHECK(mixed.store.count({"", "Pod"}) == 1);
  CHECK(mixed.store.count({"", "Node"}) == 1);
  loaded broken("{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\n\"items\":[{\"metadata\":{\"name\": }]}");
  REQUIRE(broken.report.errors.size() == 1);
  CHECK(broken.report.errors[0].message.find("cannot parse JSON") == 0);
  CHECK(broken.report.errors[0].line == 2);
}
