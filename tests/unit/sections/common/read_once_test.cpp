// One reading per object per render: state, summary and details share it (common/read_once.hpp).
#include "sections/common/read_once.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;
using sextant::testing::fixture_cluster;

namespace {

int reads = 0;  // how often the reader below ran; reset by each test

struct counted_reading {
  std::string name;
};
counted_reading read_counted(const cached_object& object, const view_context&) {
  ++reads;
  return {std::string(object.name)};
}

fixture_cluster two_nodes() {
  fixture_cluster cluster;
  cluster.load_yaml(
      "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: b}\n");
  return cluster;
}

}  // namespace

TEST_CASE("read_once reads an object once within one render and afresh outside one", "[sections][read-once]") {
  fixture_cluster cluster = two_nodes();
  object_ptr a = cluster.get("", "Node", "", "a");
  object_ptr b = cluster.get("", "Node", "", "b");
  REQUIRE(a != nullptr);
  REQUIRE(b != nullptr);
  view_context context = cluster.context();

  SECTION("within a render: once per object") {
    reads = 0;
    readings_scope render(context);
    CHECK(read_once(*a, context, read_counted)->name == "a");
    CHECK(read_once(*a, context, read_counted)->name == "a");
    CHECK(read_once(*b, context, read_counted)->name == "b");
    CHECK(reads == 2);
  }
  SECTION("a render inside another (details around the summary) shares the outer memo") {
    reads = 0;
    readings_scope details(context);
    read_once(*a, context, read_counted);
    {
      readings_scope summary(context);
      read_once(*a, context, read_counted);
    }
    CHECK(reads == 1);
  }
  SECTION("after the render, and outside any: read afresh") {
    reads = 0;
    {
      readings_scope render(context);
      read_once(*a, context, read_counted);
    }
    CHECK(context.readings == nullptr);
    read_once(*a, context, read_counted);
    read_once(*a, context, read_counted);
    CHECK(reads == 3);
  }
}
