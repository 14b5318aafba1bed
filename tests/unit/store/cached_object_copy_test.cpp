#include <catch2/catch.hpp>

#include "store/object.hpp"

using namespace sextant;

TEST_CASE("a copied object's identity reads from its own body, vocabulary words included", "[store]") {
  // "v1" is a vocabulary word (store/packed_vocabulary.hpp): its view is not inside the body.
  json body = {{"apiVersion", "v1"},
               {"kind", "Pod"},
               {"metadata", {{"name", "p"}, {"namespace", "team-a"}, {"uid", "u-1"}, {"resourceVersion", "7"}}}};
  object_ptr original = make_object(body, {}, nullptr);
  REQUIRE(original);
  auto copy = std::make_unique<cached_object>(*original);
  const auto* copy_begin = reinterpret_cast<const char*>(copy->packed.data());
  const auto* copy_end = copy_begin + copy->packed.size();
  auto inside_copy = [&](std::string_view view) {
    return std::less_equal<>{}(copy_begin, view.data()) && std::less<>{}(view.data(), copy_end);
  };
  original.reset();  // the copy must not read the original's bytes
  CHECK(copy->api_version == "v1");
  CHECK(copy->name == "p");
  CHECK(inside_copy(copy->name));
  CHECK(copy->namespace_ == "team-a");
  CHECK(inside_copy(copy->namespace_));
  CHECK(copy->uid == "u-1");
  CHECK(copy->resource_version == "7");
  CHECK(inside_copy(copy->resource_version));
}
