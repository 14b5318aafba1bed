#include "kube/line_splitter.hpp"

#include <random>

#include <catch2/catch.hpp>

#include "ingest/json_decoder.hpp"
#include "kube/api_lister_watcher.hpp"
#include "kube_test_support.hpp"

using namespace sextant;
using namespace sextant::kube;

namespace {

std::vector<std::string> split_in_pieces(line_splitter& splitter, const std::string& stream,
                                         const std::vector<std::size_t>& cuts) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t cut : cuts) {
    for (std::string_view line : splitter.feed(std::string_view(stream).substr(from, cut - from))) {
      out.emplace_back(line);
    }
    from = cut;
  }
  for (std::string_view line : splitter.feed(std::string_view(stream).substr(from))) {
    out.emplace_back(line);
  }
  return out;
}

const std::vector<std::string> events = {
    R"({"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"a"}}})",
    R"({"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"b","annotations":{"x":"line\nbreak"}}}})",
    R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{"resourceVersion":"12"}}})",
    R"({"type":"DELETED","object":{"kind":"Pod","metadata":{"name":"ünïcode"}}})",
};

std::string joined() {
  std::string out;
  for (const std::string& e : events) {
    out += e + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("watch lines come out whole wherever the stream is cut once", "[kube][watch]") {
  const std::string stream = joined();
  for (std::size_t cut = 0; cut <= stream.size(); ++cut) {
    line_splitter splitter;
    INFO("cut at " << cut);
    CHECK(split_in_pieces(splitter, stream, {cut}) == events);
    CHECK(splitter.pending() == 0);
  }
}

TEST_CASE("watch lines come out whole across arbitrary chunk boundaries", "[kube][watch]") {
  const std::string stream = joined() + joined() + joined();
  std::vector<std::string> expected;
  for (int i = 0; i < 3; ++i) {
    expected.insert(expected.end(), events.begin(), events.end());
  }
  std::mt19937 random(7);
  for (int round = 0; round < 500; ++round) {
    std::uniform_int_distribution<std::size_t> count(0, 40);
    std::uniform_int_distribution<std::size_t> position(0, stream.size());
    std::vector<std::size_t> cuts(count(random));
    for (auto& cut : cuts) {
      cut = position(random);
    }
    std::sort(cuts.begin(), cuts.end());
    line_splitter splitter;
    INFO("round " << round);
    CHECK(split_in_pieces(splitter, stream, cuts) == expected);
  }
  line_splitter byte_by_byte;
  std::vector<std::size_t> every_byte;
  for (std::size_t i = 1; i < stream.size(); ++i) {
    every_byte.push_back(i);
  }
  CHECK(split_in_pieces(byte_by_byte, stream, every_byte) == expected);
}

TEST_CASE("carriage returns and blank lines are dropped, partial lines wait", "[kube][watch]") {
  line_splitter splitter;
  auto lines = splitter.feed("{\"a\":1}\r\n\n{\"b\":");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "{\"a\":1}");
  CHECK(splitter.pending() == 5);
  lines = splitter.feed("2}\n");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "{\"b\":2}");
  CHECK(splitter.pending() == 0);
}

TEST_CASE("a line longer than the limit marks the splitter overflowed", "[kube][watch]") {
  line_splitter splitter(16);
  splitter.feed("0123456789");
  CHECK_FALSE(splitter.overflowed());
  splitter.feed("0123456789");
  CHECK(splitter.overflowed());
}

namespace {

// A body that hands over its text in the given pieces, then ends (or fails).
class canned_body final : public body_stream {
 public:
  canned_body(std::vector<std::string> pieces, std::string end_error = {})
      : pieces_(std::move(pieces)), end_error_(std::move(end_error)) {}
  net::awaitable<stream_chunk> read() override {
    if (next_ < pieces_.size()) {
      current_ = pieces_[next_++];
      co_return stream_chunk{current_, false, false, {}};
    }
    if (!end_error_.empty()) {
      co_return stream_chunk{{}, false, end_error_ == "idle", end_error_};
    }
    co_return stream_chunk{{}, true, false, {}};
  }
  void cancel() override {}

 private:
  std::vector<std::string> pieces_;
  std::string end_error_;
  std::string current_;
  std::size_t next_ = 0;
};

std::vector<watch_item> drain(net::io_context& io, watch_stream& stream) {
  std::vector<watch_item> out;
  for (;;) {
    auto item = sextant::kube::testing::run_to_end(io, stream.next());
    REQUIRE(item);
    out.push_back(std::move(*item));
    if (out.back().what != watch_item::kind::event) {
      return out;
    }
  }
}

}  // namespace

TEST_CASE("a watch body cut into pieces decodes into its events, then its end", "[kube][watch]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  net::io_context io;
  std::string text =
      R"({"type":"ADDED","object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ml","resourceVersion":"5","managedFields":[{}]}}})"
      "\n"
      R"({"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"9"}}})"
      "\n";
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < text.size(); i += 7) {
    pieces.push_back(text.substr(i, 7));
  }
  body_watch_stream stream(std::make_shared<canned_body>(pieces), decoder, kind_key{"", "Pod"});
  auto items = drain(io, stream);
  REQUIRE(items.size() == 3);
  CHECK(items[0].event.type == "ADDED");
  CHECK(items[0].event.object.root()["metadata"]["name"] == "a");
  CHECK_FALSE(items[0].event.object.root()["metadata"].contains("managedFields"));
  CHECK(items[1].event.type == "BOOKMARK");
  CHECK(items[1].event.object.root()["metadata"]["resourceVersion"] == "9");
  CHECK(items[2].what == watch_item::kind::closed);
}

TEST_CASE("a watch body that breaks, stalls or ends mid-event says so", "[kube][watch]") {
  ingest_profiles profiles;
  json_decoder decoder(profiles);
  net::io_context io;
  const kind_key pod{"", "Pod"};
  {
    body_watch_stream stream(std::make_shared<canned_body>(std::vector<std::string>{"{\"type\":\"ADDED\",\"obj"}),
                             decoder, pod);
    auto items = drain(io, stream);
    REQUIRE(items.size() == 1);
    CHECK(items[0].what == watch_item::kind::failed);
    CHECK_THAT(items[0].error.message, Catch::Contains("ended inside an event"));
  }
  {
    body_watch_stream stream(std::make_shared<canned_body>(std::vector<std::string>{}, "connection reset"), decoder,
                             pod);
    auto items = drain(io, stream);
    CHECK(items.back().what == watch_item::kind::failed);
    CHECK(items.back().error.message == "connection reset");
  }
  {
    body_watch_stream stream(std::make_shared<canned_body>(std::vector<std::string>{}, "idle"), decoder, pod);
    CHECK(drain(io, stream).back().what == watch_item::kind::idle);
  }
  {
    body_watch_stream stream(std::make_shared<canned_body>(std::vector<std::string>{"not json\n"}), decoder, pod);
    auto items = drain(io, stream);
    CHECK(items.back().what == watch_item::kind::failed);
    CHECK(items.back().error.reason == "Undecodable");
  }
}
