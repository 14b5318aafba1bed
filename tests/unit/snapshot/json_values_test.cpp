#include <catch2/catch.hpp>

#include "snapshot/json_values.hpp"

using sextant::split_json_values;

TEST_CASE("concatenated JSON values are found with their offsets, strings and escapes included", "[loader]") {
  auto values = split_json_values(R"( {"a": "}{\"x"} [1, [2]]
"text" 42 {"b": {}})");
  REQUIRE(values.size() == 5);
  CHECK(values[0].text == R"({"a": "}{\"x"})");
  CHECK(values[0].offset == 1);
  CHECK(values[1].text == "[1, [2]]");
  CHECK(values[2].text == "\"text\"");
  CHECK(values[3].text == "42");
  CHECK(values[4].text == R"({"b": {}})");
}

TEST_CASE("an unclosed value runs to the end and a stray bracket stands alone", "[loader]") {
  auto values = split_json_values("} {\"a\": [1, 2");
  REQUIRE(values.size() == 2);
  CHECK(values[0].text == "}");
  CHECK(values[1].text == "{\"a\": [1, 2");
  CHECK(values[1].offset == 2);
  CHECK(split_json_values(" \n\t").empty());
}
