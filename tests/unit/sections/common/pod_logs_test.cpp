// Pod logs as streaming routes serve them, as pure functions: the query (follow, tailLines), the
// cap of 20 merged logs naming those left out, and the merging of upstream bytes into prefixed
// whole lines with the daemon's notices on lines of their own.
#include "sections/common/pod_logs.hpp"

#include <cstdio>

#include <catch2/catch.hpp>

#include "support/fixtures.hpp"

using namespace sextant;

namespace {

std::vector<pod_log_source> pods(std::size_t count) {
  std::vector<pod_log_source> out;
  for (std::size_t i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "worker-%02zu", i);
    out.push_back(pod_log_source{"ml", name, "ray-worker", {}});
  }
  return out;
}

}  // namespace

TEST_CASE("log options: follow and tailLines as the API server takes them, anything else refused", "[logs]") {
  CHECK_FALSE(parse_log_options({}).follow);
  CHECK_FALSE(parse_log_options({}).tail_lines);
  CHECK(parse_log_options({{"follow", "true"}}).follow);
  CHECK(parse_log_options({{"follow", "1"}}).follow);
  CHECK_FALSE(parse_log_options({{"follow", "false"}}).follow);
  CHECK(parse_log_options({{"tailLines", "0"}}).tail_lines == 0);
  CHECK(parse_log_options({{"tailLines", "250"}}).tail_lines == 250);
  for (const char* bad : {"-1", "ten", "5x", "", "99999999999999999999"}) {
    INFO(bad);
    log_options options = parse_log_options({{"tailLines", bad}});
    CHECK(options.error.find("tailLines") != std::string::npos);
  }
  CHECK(parse_log_options({{"follow", "yes"}}).error.find("follow must be true or false") != std::string::npos);
}

TEST_CASE("a merged log: at most 20 logs, each line prefixed with its pod, the rest named first", "[logs]") {
  log_options options;
  options.follow = true;
  options.tail_lines = 10;
  pod_log_plan few = merged_log_plan(pods(3), options, "worker pods");
  REQUIRE(few.sources.size() == 3);
  CHECK(few.notices.empty());
  CHECK(few.sources[1].prefix == "[pod/worker-01] ");
  CHECK(few.follow);
  CHECK(few.tail_lines == 10);

  pod_log_plan many = merged_log_plan(pods(23), options, "worker pods");
  REQUIRE(many.sources.size() == max_merged_logs);
  CHECK(many.sources.back().pod == "worker-19");
  REQUIRE(many.notices.size() == 1);
  CHECK(many.notices[0] ==
        "23 worker pods; merged here: the first 20 by name; left out (3): worker-20, worker-21, worker-22.");

  pod_log_plan exactly = merged_log_plan(pods(20), options, "worker pods");
  CHECK(exactly.sources.size() == 20);
  CHECK(exactly.notices.empty());

  pod_log_plan alone = single_log_plan(pod_log_source{"ml", "head", "ray-head", "[x] "}, options);
  REQUIRE(alone.sources.size() == 1);
  CHECK(alone.sources[0].prefix.empty());
}

TEST_CASE("the merger writes whole prefixed lines, whatever pieces the network cuts them into", "[logs]") {
  pod_log_plan plan = merged_log_plan(pods(2), {}, "worker pods");
  log_merger merger(plan.sources);
  CHECK(merger.feed(0, "first li") == "");
  CHECK(merger.feed(1, "b1\nb2\n") == "[pod/worker-01] b1\n[pod/worker-01] b2\n");
  CHECK(merger.feed(0, "ne\n\nsecond") == "[pod/worker-00] first line\n[pod/worker-00] \n");
  // Ended: the unfinished line is written whole; a normal end of a log not followed says nothing.
  CHECK(merger.end(0, {}, false) == "[pod/worker-00] second\n");
  CHECK(merger.end(1, "the server closed the stream", false) ==
        "[sextant] the log of pod worker-01 broke: the server closed the stream.\n");
  CHECK(merger.open_failed(0, "the API server answered 404").starts_with("[sextant] cannot read the log of pod"));
  CHECK(merger.feed(7, "out of range\n").empty());
}

TEST_CASE("a followed log that the API server ends says so, since a broken node connection ends it alike", "[logs]") {
  pod_log_plan plan = merged_log_plan(pods(1), {}, "worker pods");
  log_merger merger(plan.sources);
  CHECK(merger.end(0, {}, true) ==
        "[sextant] the API server ended the log of pod worker-00 (its container stopped, or the connection to its "
        "node broke).\n");
}

TEST_CASE("a log shown alone passes through as is; a notice after it starts a line of its own", "[logs]") {
  pod_log_plan plan = single_log_plan(pod_log_source{"ml", "head", "ray-head", {}}, {});
  log_merger merger(plan.sources);
  CHECK(merger.notice("first") == "[sextant] first\n");
  CHECK(merger.feed(0, "a\nb") == "a\nb");
  CHECK(merger.end(0, "reset", false) == "\n[sextant] the log of pod head broke: reset.\n");
  CHECK(merger.feed(0, "c\n") == "c\n");
  CHECK(merger.notice("done") == "[sextant] done\n");
}

TEST_CASE("a prefixed line longer than the limit is cut, so a log without newlines stays bounded", "[logs]") {
  pod_log_plan plan = merged_log_plan(pods(1), {}, "worker pods");
  log_merger merger(plan.sources);
  std::string out = merger.feed(0, std::string(max_log_line + 10, 'x'));
  CHECK(out.size() == std::string("[pod/worker-00] ").size() + max_log_line + 1);
  CHECK(merger.end(0, {}, false) == "[pod/worker-00] xxxxxxxxxx\n");
}

TEST_CASE("the container read: the one asked for when the pod has it, else its first", "[logs]") {
  testing::fixture_cluster cluster;
  cluster.load_yaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: head, namespace: ml}
spec:
  containers: [{name: ray-head}, {name: autoscaler}, {name: ray-job-submitter}]
---
apiVersion: v1
kind: Pod
metadata: {name: bare, namespace: ml}
spec: {containers: "not a list"}
)");
  object_ptr head = cluster.get("", "Pod", "ml", "head");
  object_ptr bare = cluster.get("", "Pod", "ml", "bare");
  REQUIRE(head);
  REQUIRE(bare);
  CHECK(container_of(*head) == "ray-head");
  CHECK(container_of(*head, "ray-job-submitter") == "ray-job-submitter");
  CHECK(container_of(*head, "missing") == "ray-head");
  CHECK(container_of(*bare).empty());
}
