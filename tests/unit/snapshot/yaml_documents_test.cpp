#include <catch2/catch.hpp>

#include "snapshot/yaml_documents.hpp"

using sextant::split_yaml_documents;

TEST_CASE("a YAML stream splits at its separator lines with each document's first line", "[loader]") {
  auto documents = split_yaml_documents("a: 1\n---\nb: 2\n--- # second\n\nc: 3\n---\n");
  REQUIRE(documents.size() == 3);
  CHECK(documents[0].text == "a: 1\n");
  CHECK(documents[0].first_line == 1);
  CHECK(documents[1].text == "b: 2\n");
  CHECK(documents[1].first_line == 3);
  CHECK(documents[2].text == "\nc: 3\n");
  CHECK(documents[2].first_line == 5);
}

TEST_CASE("documents of only blanks and comments are left out, and a leading separator is one", "[loader]") {
  auto documents = split_yaml_documents("---\n# nothing here\n\n---\nkind: Node\n---\r\n");
  REQUIRE(documents.size() == 1);
  CHECK(documents[0].text == "kind: Node\n");
  CHECK(documents[0].first_line == 5);
  CHECK(split_yaml_documents("").empty());
}

TEST_CASE("lines that only start with dashes stay inside their document", "[loader]") {
  auto documents = split_yaml_documents("text: |\n  ----- BEGIN\n---x: 1\n");
  REQUIRE(documents.size() == 1);
  CHECK(documents[0].text == "text: |\n  ----- BEGIN\n---x: 1\n");
}
