// The toolkit's wrong-type notes: one sentence and one set of type words for every section.
#include "sections/common/field_types.hpp"

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;

TEST_CASE("a wrong-typed field is noted in one sentence, with one word per type", "[toolkit][field-types]") {
  json body = {{"spec",
                {{"name", 3},
                 {"count", "three"},
                 {"ratio", "half"},
                 {"enabled", "yes"},
                 {"items", json::object()},
                 {"policy", json::array()},
                 {"selector", "gpu=true"},
                 {"nested", {{"limit", true}}}}}};
  packed_body packed = pack(body);
  std::vector<std::string> notes;
  note_wrong_types(packed.root(),
                   {{"spec.name", field_type::string},
                    {"spec.count", field_type::integer},
                    {"spec.ratio", field_type::number},
                    {"spec.enabled", field_type::boolean},
                    {"spec.items", field_type::array},
                    {"spec.policy", field_type::object},
                    {"spec.selector", field_type::map},
                    {"spec.nested.limit", field_type::number}},
                   notes);
  CHECK(notes == std::vector<std::string>{
                     "spec.name is not a string; it is left out.",
                     "spec.count is not an integer; it is left out.",
                     "spec.ratio is not a number; it is left out.",
                     "spec.enabled is not true or false; it is left out.",
                     "spec.items is not a list; it is left out.",
                     "spec.policy is not an object; it is left out.",
                     "spec.selector is not a map; it is left out.",
                     "spec.nested.limit is not a number; it is left out.",
                 });
  CHECK(wrong_type_sentence("The attributes of device gpu-1", field_type::map) ==
        "The attributes of device gpu-1 is not a map; it is left out.");
}

TEST_CASE("a field of the right type, null, or absent is not noted", "[toolkit][field-types]") {
  json body = {{"spec", {{"name", "a"}, {"count", 2}, {"ratio", 2.5}, {"gone", nullptr}, {"selector", json::object()}}},
               {"status", "not an object"}};
  packed_body packed = pack(body);
  std::vector<std::string> notes;
  note_wrong_types(packed.root(),
                   {{"spec.name", field_type::string},
                    {"spec.count", field_type::integer},
                    {"spec.count", field_type::number},
                    {"spec.ratio", field_type::number},
                    {"spec.gone", field_type::string},
                    {"spec.missing", field_type::array},
                    {"spec.selector", field_type::map},
                    // A parent of another type hides the field: the parent's own note says so.
                    {"status.conditions", field_type::array}},
                   notes);
  CHECK(notes.empty());
}
