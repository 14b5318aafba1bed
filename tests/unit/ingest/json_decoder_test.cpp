#include "ingest/json_decoder.hpp"

#include <catch2/catch.hpp>

using namespace sextant;

namespace {

ingest_profiles workload_profiles() {
  ingest_profiles profiles;
  ingest_profile profile =
      ingest_profile::keeping({"spec.queueName", "spec.podSets.name", "spec.podSets.count", "status.conditions"});
  profile.transform = [](const packed_value& masked, packed_writer& out) {
    json object = masked;
    object["summarised"] = true;
    out.write(object);
  };
  profiles.set({"kueue.x-k8s.io", "Workload"}, profile);
  return profiles;
}

const char* workload = R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"Workload",
  "metadata":{"name":"w","namespace":"a","uid":"u1","resourceVersion":"5",
    "managedFields":[{"manager":"kueue"}],
    "annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","x":"y"}},
  "spec":{"queueName":"q","priority":7,"podSets":[{"name":"main","count":2,"template":{"spec":{"containers":[{"name":"c"}]}}}]},
  "status":{"conditions":[{"type":"QuotaReserved","status":"False","reason":"Pending","message":"m"}],
            "admission":{"clusterQueue":"cq"}}})";

}  // namespace

TEST_CASE("a typed decode keeps only the profile's fields", "[ingest]") {
  ingest_profiles profiles = workload_profiles();
  json_decoder decoder(profiles);
  kind_key type{"kueue.x-k8s.io", "Workload"};
  auto decoded = decoder.decode_object(workload, &type);
  REQUIRE(decoded.ok());
  const json object = decoded.value->root();
  CHECK(object["metadata"]["name"] == "w");
  CHECK_FALSE(object["metadata"].contains("managedFields"));
  CHECK(object["metadata"]["annotations"].size() == 1);
  CHECK(object["spec"]["queueName"] == "q");
  CHECK_FALSE(object["spec"].contains("priority"));
  CHECK(object["spec"]["podSets"][0]["count"] == 2);
  CHECK_FALSE(object["spec"]["podSets"][0].contains("template"));
  CHECK(object["status"]["conditions"][0]["reason"] == "Pending");
  CHECK_FALSE(object["status"].contains("admission"));
  CHECK(object["summarised"] == true);
}

TEST_CASE("untyped decode then profile equals the typed decode", "[ingest]") {
  ingest_profiles profiles = workload_profiles();
  json_decoder decoder(profiles);
  kind_key type{"kueue.x-k8s.io", "Workload"};
  auto typed = decoder.decode_object(workload, &type);
  auto untyped = decoder.decode_object(workload);
  REQUIRE(typed.ok());
  REQUIRE(untyped.ok());
  CHECK(json(typed.value->root()) == json(untyped.value->root()));
}

TEST_CASE("a list body yields items with type, resourceVersion and continue token", "[ingest]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  auto list = decoder.decode_list(
      R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"42","continue":"abc","remainingItemCount":3},
          "items":[{"metadata":{"name":"p","namespace":"n","managedFields":[]},"spec":{"nodeName":"x"}}]})",
      "v1", "Pod");
  REQUIRE(list.ok());
  CHECK(list.value->resource_version == "42");
  CHECK(list.value->continue_token == "abc");
  CHECK(list.value->remaining_item_count == 3);
  REQUIRE(list.value->items.size() == 1);
  CHECK(list.value->items[0].root()["kind"] == "Pod");
  CHECK(list.value->items[0].root()["apiVersion"] == "v1");
  CHECK_FALSE(list.value->items[0].root()["metadata"].contains("managedFields"));
}

TEST_CASE("watch events decode, including ERROR and BOOKMARK", "[ingest]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  kind_key pod{"", "Pod"};
  auto added = decoder.decode_watch_event(
      R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","resourceVersion":"7"}}})",
      pod);
  REQUIRE(added.ok());
  CHECK(added.value->type == "ADDED");
  CHECK(added.value->object.root()["metadata"]["resourceVersion"] == "7");
  auto gone = decoder.decode_watch_event(
      R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Expired","code":410}})",
      pod);
  REQUIRE(gone.ok());
  CHECK(gone.value->type == "ERROR");
  CHECK(gone.value->object.root()["code"] == 410);
  auto bookmark = decoder.decode_watch_event(
      R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"99"}}})", pod);
  REQUIRE(bookmark.ok());
  CHECK(bookmark.value->object.root()["metadata"]["resourceVersion"] == "99");
}

TEST_CASE("malformed JSON is an error value, never an exception", "[ingest]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  kind_key pod{"", "Pod"};
  CHECK_FALSE(decoder.decode_object("{\"a\": ").ok());
  CHECK_FALSE(decoder.decode_object("[1, 2").ok());
  CHECK_FALSE(decoder.decode_list("{\"items\": [{]}").ok());
  CHECK_FALSE(decoder.decode_watch_event("{\"type\": \"ADDED\"}", pod).ok());
  CHECK_FALSE(decoder.decode_watch_event("not json", pod).ok());
  auto numbers = decoder.decode_object(R"({"big": 18446744073709551615, "neg": -5, "f": 1e3, "n": null, "b": false})");
  REQUIRE(numbers.ok());
  CHECK(json(numbers.value->root())["big"].get<std::uint64_t>() == 18446744073709551615ULL);
  CHECK(numbers.value->root()["neg"] == -5);
  CHECK(numbers.value->root()["f"].as_double() == 1000.0);
  CHECK(numbers.value->root()["n"].is_null());
}

TEST_CASE("a document nested deeper than any object is refused, not followed to the end of the stack", "[ingest]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  auto nested = [](int levels) {
    return "{\"spec\": " + std::string(static_cast<std::size_t>(levels), '[') +
           std::string(static_cast<std::size_t>(levels), ']') + "}";
  };
  // Found by fuzz_json_decoder: a few thousand brackets overflowed the recursive descent.
  auto deep = decoder.decode_object(nested(4000));
  REQUIRE_FALSE(deep.ok());
  CHECK(deep.error.find("deep") != std::string::npos);
  CHECK_FALSE(decoder.decode_untyped(nested(4000)).ok());
  CHECK_FALSE(decoder.decode_list("{\"items\": [" + nested(4000) + "]}").ok());
  // Deep but plausible nesting still decodes.
  auto fine = decoder.decode_object(nested(100));
  REQUIRE(fine.ok());
  CHECK(json(fine.value->root())["spec"].is_array());
}

TEST_CASE("a decoder lets go of the buffers a large list needed, and keeps small ones", "[ingest]") {
  ingest_profiles profiles = workload_profiles();
  json_decoder decoder(profiles);
  REQUIRE(decoder.decode_object(workload).ok());
  const std::size_t after_small = decoder.retained_capacity();
  CHECK(after_small > 0);  // kept for the next watch event

  // A relist of thousands: 6 MB of Workloads, past what is kept.
  std::string big =
      R"({"apiVersion":"kueue.x-k8s.io/v1beta2","kind":"WorkloadList","metadata":{"resourceVersion":"9"},"items":[)";
  const std::string item = workload;
  for (int i = 0; big.size() < (std::size_t{6} << 20); ++i) {
    big += (i == 0 ? "" : ",") + item;
  }
  big += "]}";
  decode_result<decoded_list> list = decoder.decode_list(big);
  REQUIRE(list.ok());
  CHECK(list.value->items.size() > 1000);
  CHECK(decoder.retained_capacity() < (std::size_t{1} << 20));
  // And it still decodes what comes next.
  CHECK(decoder.decode_object(workload).ok());
}
