#include "store/packed_value.hpp"

#include <catch2/catch.hpp>
#include <limits>
#include <string>
#include <vector>

#include "store/packed_vocabulary.hpp"
#include "store/packed_writer.hpp"

using namespace sextant;

namespace {

const json sample = json::parse(R"({
  "apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
  "metadata": {"name": "w", "labels": {}, "ownerReferences": [{"kind": "Job", "controller": true}]},
  "spec": {"priority": -7, "big": 18446744073709551615, "ratio": 0.25, "active": false, "gone": null,
           "podSets": [{"name": "main", "count": 2}, {"name": "workers", "count": 8}], "none": []},
  "status": {"conditions": [{"type": "QuotaReserved", "status": "True"}, {"type": "Admitted", "status": "False"}]}
})");

}  // namespace

TEST_CASE("a packed value reads back as the JSON it was packed from", "[packed]") {
  packed_body body = pack(sample);
  CHECK(json(body.root()) == sample);
  CHECK(body.root().dump() == sample.dump());
  // Packed is about the size of the text, far below nlohmann's tree.
  CHECK(body.size() < sample.dump().size() + 64);
}

TEST_CASE("a packed value answers nlohmann's questions the way nlohmann does", "[packed]") {
  packed_body body = pack(sample);
  const packed_value& root = body.root();
  REQUIRE(root.is_object());
  CHECK(root.size() == 5);
  CHECK(root["kind"] == "Workload");
  CHECK(root["kind"].get<std::string>() == "Workload");
  CHECK(root["spec"]["priority"].get<std::int64_t>() == -7);
  CHECK(root["spec"]["priority"].is_number_integer());
  CHECK(root["spec"]["big"].is_number_unsigned());
  CHECK(json(root["spec"]["big"]).get<std::uint64_t>() == 18446744073709551615ULL);
  CHECK(root["spec"]["ratio"].is_number_float());
  CHECK(root["spec"]["ratio"].get<double>() == 0.25);
  CHECK(root["spec"]["active"].is_boolean());
  CHECK_FALSE(root["spec"]["active"].get<bool>());
  CHECK(root["spec"]["gone"].is_null());
  CHECK(root["spec"].contains("gone"));
  CHECK_FALSE(root["spec"].contains("absent"));
  CHECK(root["metadata"]["labels"].is_object());
  CHECK(root["metadata"]["labels"].empty());
  CHECK(root["spec"]["none"].is_array());
  CHECK(root["spec"]["none"].empty());
  // What is not there reads as null instead of failing.
  CHECK(root["spec"]["absent"]["deeper"].is_null());
  CHECK(root["spec"]["podSets"][7].is_null());
  CHECK(root["kind"][0].is_null());
}

TEST_CASE("the readers of util/json.hpp walk packed values", "[packed]") {
  packed_body body = pack(sample);
  const packed_value& root = body.root();
  CHECK(string_or(root, {"spec", "podSets", 1, "name"}) == "workers");
  CHECK(get_int(root, {"spec", "podSets", 1, "count"}) == 8);
  CHECK(get_bool(root, {"metadata", "ownerReferences", 0, "controller"}) == true);
  CHECK_FALSE(get_string(root, {"spec", "priority"}).has_value());
  CHECK(find(root, {"spec", "podSets", 2}) == nullptr);
  CHECK(array_or_empty(root, {"spec", "missing"}).is_array());
  CHECK(object_or_empty(root, {"kind"}).is_object());
  const packed_value* admitted = find_condition(root["status"]["conditions"], "Admitted");
  REQUIRE(admitted != nullptr);
  CHECK_FALSE(condition_true(admitted));
  CHECK(condition_true(find_condition(root["status"]["conditions"], "QuotaReserved")));
  CHECK(find_condition(root["status"]["conditions"], "Evicted") == nullptr);
}

TEST_CASE("elements, members, front and back iterate in written order", "[packed]") {
  packed_body body = pack(sample);
  const packed_value& pod_sets = body.root()["spec"]["podSets"];
  std::vector<std::string> names;
  for (const packed_value& pod_set : pod_sets) {
    names.push_back(pod_set["name"].get<std::string>());
  }
  CHECK(names == std::vector<std::string>{"main", "workers"});
  CHECK(pod_sets.front()["name"] == "main");
  CHECK(pod_sets.back()["name"] == "workers");
  std::vector<std::string> keys;
  for (const auto& [key, value] : body.root()["spec"].items()) {
    keys.push_back(std::string(key));
    CHECK(&value == body.root()["spec"].member(key));
  }
  CHECK(keys == std::vector<std::string>{"priority", "big", "ratio", "active", "gone", "podSets", "none"});
  // As with nlohmann, iterating an object visits its values, and a scalar has none.
  std::size_t values = 0;
  for (const packed_value& value : body.root()["metadata"]) {
    (void)value;
    ++values;
  }
  CHECK(values == 3);
  CHECK(body.root()["kind"].begin() == body.root()["kind"].end());
  CHECK(body.root()["kind"].items().begin() == body.root()["kind"].items().end());
}

TEST_CASE("long strings and keys take the long length form", "[packed]") {
  const std::string long_text(70000, 'x');
  const std::string long_key(300, 'k');
  json value = {{long_key, long_text}, {"after", std::string(254, 'y')}, {"edge", std::string(255, 'z')}};
  packed_body body = pack(value);
  CHECK(body.root()[long_key].string_view().size() == 70000);
  CHECK(body.root()["after"].string_view().size() == 254);
  CHECK(body.root()["edge"].string_view().size() == 255);
  CHECK(json(body.root()) == value);
}

TEST_CASE("texts of 127 and 128 bytes sit either side of the short form", "[packed]") {
  json value = {{std::string(127, 'a'), std::string(127, 'b')}, {std::string(128, 'c'), std::string(128, 'd')}};
  packed_body body = pack(value);
  CHECK(body.root()[std::string(127, 'a')].string_view() == std::string(127, 'b'));
  CHECK(body.root()[std::string(128, 'c')].string_view() == std::string(128, 'd'));
  CHECK(json(body.root()) == value);
}

TEST_CASE("vocabulary words are one byte each and read back as their text", "[packed]") {
  // Every word, as a key and as a value, next to texts that are almost words.
  json value = json::object();
  for (std::size_t i = 0; i < vocabulary_words(); ++i) {
    const std::string word(vocabulary_word(i));
    REQUIRE(vocabulary_index(word) == i);
    value[word] = word;
    value[word + "x"] = word.substr(1);
  }
  packed_body body = pack(value);
  CHECK(json(body.root()) == value);
  CHECK(body.root()["lastTransitionTime"] == "lastTransitionTime");
  CHECK(!vocabulary_index("lastTransitionTim"));
  CHECK(!vocabulary_index(""));

  // {"status": "True"}: tag, count, size, the key's word, the string's tag and word.
  CHECK(pack(json{{"status", "True"}}).size() == 6);
  // Outside the vocabulary: the key's length and text.
  CHECK(pack(json{{"statuz", "True"}}).size() == 12);
}

TEST_CASE("integers of every width keep their value and sign", "[packed]") {
  const std::vector<std::int64_t> signed_values = {0,
                                                   1,
                                                   -1,
                                                   63,
                                                   -64,
                                                   64,
                                                   -65,
                                                   1 << 20,
                                                   -(1 << 20),
                                                   std::numeric_limits<std::int64_t>::max(),
                                                   std::numeric_limits<std::int64_t>::min()};
  for (std::int64_t number : signed_values) {
    packed_writer writer;
    writer.signed_integer(number);
    packed_body body = writer.finish();
    CHECK(body.root().as_int() == number);
    CHECK(body.root().as_double() == static_cast<double>(number));
  }
  packed_writer writer;
  writer.unsigned_integer(std::numeric_limits<std::uint64_t>::max());
  packed_body body = writer.finish();
  CHECK(json(body.root()) == json(std::numeric_limits<std::uint64_t>::max()));
  CHECK(body.size() == 1 + 10);
  // Small numbers are small: a tag and one byte.
  CHECK(pack(json(-7)).size() == 2);
}

TEST_CASE("containers larger than a one-byte count or size nest and skip correctly", "[packed]") {
  json value = json::object();
  json& many = value["many"];
  for (int i = 0; i < 5000; ++i) {
    many.push_back({{"i", i}, {"name", "element-" + std::to_string(i)}});
  }
  value["after"] = "found";
  packed_body body = pack(value);
  CHECK(body.root()["many"].size() == 5000);
  CHECK(body.root()["many"][4999]["i"].as_int() == 4999);
  CHECK(body.root()["after"] == "found");
  CHECK(json(body.root()) == value);
}

TEST_CASE("a packed value copies into a writer whole, and bodies copy deeply", "[packed]") {
  packed_body inner = pack(sample["spec"]["podSets"]);
  packed_writer writer;
  writer.begin_array();
  writer.write(inner.root());
  writer.write(json("plain"));
  writer.end_array();
  packed_body outer = writer.finish();
  CHECK(outer.root().size() == 2);
  CHECK(json(outer.root()[0]) == sample["spec"]["podSets"]);
  CHECK(outer.root()[1] == "plain");
  packed_body copy = outer;
  CHECK(copy.size() == outer.size());
  CHECK(&copy.root() != &outer.root());
  CHECK(json(copy.root()) == json(outer.root()));
}

TEST_CASE("a writer refuses to finish half a value, and starts clean after reset", "[packed]") {
  packed_writer writer;
  writer.begin_object();
  writer.key("a");
  CHECK_THROWS_AS(writer.finish(), std::logic_error);
  writer.reset();
  writer.signed_integer(5);
  CHECK(writer.finish().root() == 5);
  CHECK(packed_body().root().is_null());
}
