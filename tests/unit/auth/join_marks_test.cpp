// Joined entries in rendered text: marked at render time, stripped before serving, and hidden
// per caller without rendering again.
#include <catch2/catch.hpp>

#include "auth/join_marks.hpp"

using namespace sextant;

namespace {

const kind_key workload{"kueue.x-k8s.io", "Workload"};
const kind_key claim{"resource.k8s.io", "ResourceClaim"};

std::string dumped(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

TEST_CASE("marks come out of the text and leave where each joined entry lies", "[auth]") {
  json view = {{"name", "cq"},
               {"path", "/api/v1/kueue/clusterqueues/cq"},
               {"waiting",
                {{"items",
                  {{{"namespace", "team-a"},
                    {"name", "w1"},
                    {"path", join_marked_path(workload, "team-a", "/api/v1/kueue/workloads/team-a/w1")}},
                   {{"name", "w2"},
                    {"namespace", "team-b"},
                    {"path", join_marked_path(workload, "team-b", "/api/v1/kueue/workloads/team-b/w2")},
                    {"note", "with \"quotes\" and {braces}"}}}}}},
               {"claim", {{"rel", "claim"}, {"path", join_marked_path(claim, "team-b", nullptr)}}}};
  stripped_view stripped = strip_join_marks(dumped(view));

  json expected = view;
  expected["waiting"]["items"][0]["path"] = "/api/v1/kueue/workloads/team-a/w1";
  expected["waiting"]["items"][1]["path"] = "/api/v1/kueue/workloads/team-b/w2";
  expected["claim"]["path"] = nullptr;
  CHECK(stripped.text == dumped(expected));
  REQUIRE(stripped.joins.size() == 3);
  for (const join_span& span : stripped.joins) {
    json entry = json::parse(stripped.text.substr(span.begin, span.end - span.begin));
    CHECK(entry.is_object());
  }
  CHECK(stripped.joins[0].type == workload);
  CHECK(stripped.joins[0].namespace_ == "team-a");
  CHECK(stripped.joins[1].namespace_ == "team-b");
  CHECK(stripped.joins[2].type == claim);
  CHECK(json::parse(stripped.text.substr(stripped.joins[1].begin, stripped.joins[1].end - stripped.joins[1].begin))
            .at("name") == "w2");

  std::string cut =
      redact_joins(stripped.text, stripped.joins, [](const join_span& span) -> std::optional<std::string> {
        if (span.namespace_ == "team-b") {
          return "you may not read things in team-b";
        }
        return std::nullopt;
      });
  json seen = json::parse(cut);
  CHECK(seen["waiting"]["items"][0]["name"] == "w1");
  CHECK(seen["waiting"]["items"][1] == json({{"hidden", "you may not read things in team-b"}}));
  CHECK(seen["claim"] == json({{"hidden", "you may not read things in team-b"}}));
  CHECK(cut.find("w2") == std::string::npos);
  CHECK(cut.find("quotes") == std::string::npos);
}

TEST_CASE("text without marks is left as it is, and an entry inside a hidden one goes with it", "[auth]") {
  const std::string plain = R"({"a":"\"\\u0001J not a mark","b":[1,{"c":null}]})";
  stripped_view unchanged = strip_join_marks(plain);
  CHECK(unchanged.text == plain);
  CHECK(unchanged.joins.empty());

  json nested = {{"outer",
                  {{"path", join_marked_path(workload, "team-b", "/o")},
                   {"inner", {{"path", join_marked_path(claim, "team-b", "/i")}}}}}};
  stripped_view stripped = strip_join_marks(dumped(nested));
  REQUIRE(stripped.joins.size() == 2);
  int asked = 0;
  std::string cut = redact_joins(stripped.text, stripped.joins, [&asked](const join_span&) {
    ++asked;
    return std::optional<std::string>("hidden");
  });
  CHECK(json::parse(cut) == json({{"outer", {{"hidden", "hidden"}}}}));
  CHECK(asked == 1);
  // Nothing hidden: the same bytes.
  CHECK(redact_joins(stripped.text, stripped.joins, [](const join_span&) { return std::optional<std::string>(); }) ==
        stripped.text);
}
