#include <catch2/catch.hpp>

#include "store/object_store.hpp"

using namespace sextant;

namespace {

object_ptr workload(const std::string& name) {
  json body = {{"apiVersion", "kueue.x-k8s.io/v1beta2"},
               {"kind", "Workload"},
               {"metadata", {{"name", name}, {"namespace", "team-a"}, {"uid", "0b5e7a8c-1f2d-4e3a-9b8c-7d6e5f4a3b2c"}}},
               {"status", {{"conditions", json::array()}}}};
  return make_object(body, {}, nullptr);
}

}  // namespace

TEST_CASE("an object holds its record, its packed body and its long strings, and a kind their sum",
          "[store][metrics]") {
  object_ptr short_name = workload("a");
  object_ptr long_name = workload("job-train-00042-with-a-long-name");
  REQUIRE(short_name);
  REQUIRE(long_name);
  // The record and body are always there; the identity fields are views into the body, so a
  // longer name costs only its bytes in the body.
  CHECK(short_name->held_bytes() >= sizeof(cached_object) + short_name->packed.size());
  CHECK(long_name->held_bytes() == short_name->held_bytes() + (long_name->packed.size() - short_name->packed.size()));

  object_store store;
  const kind_key type = short_name->type;
  CHECK(store.held_bytes(type) == 0);
  store.upsert(short_name);
  store.upsert(long_name);
  CHECK(store.held_bytes(type) == short_name->held_bytes() + long_name->held_bytes());
  store.remove(type, "team-a", "a");
  CHECK(store.held_bytes(type) == long_name->held_bytes());

  // The sum is kept as objects come and go, so a replaced object counts once, as it is now.
  object_ptr renamed_again = workload("job-train-00042-with-a-long-name");
  store.upsert(renamed_again);
  CHECK(store.held_bytes(type) == renamed_again->held_bytes());
  store.replace_all(type, {short_name});
  CHECK(store.held_bytes(type) == short_name->held_bytes());
  store.forget(type);
  CHECK(store.held_bytes(type) == 0);
}
