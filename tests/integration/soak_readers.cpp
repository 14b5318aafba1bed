#include "soak_readers.hpp"

#include <map>
#include <optional>
#include <random>

#include "plain_connection.hpp"

namespace sextant::integration {

namespace {

// The details path of one item of a list answer, chosen at random, as a user clicks on a row;
// found in the text (the lists are compact JSON) so that the harness, built without
// optimisation, does not parse thousands of items for one path.
std::optional<std::string> some_item_path(const std::string& list, const std::string& prefix, std::mt19937& random) {
  const std::string marker = "\"path\":\"" + prefix;
  std::vector<std::size_t> starts;
  for (std::size_t at = list.find(marker); at != std::string::npos; at = list.find(marker, at + marker.size())) {
    starts.push_back(at + 8);
  }
  if (starts.empty()) {
    return std::nullopt;
  }
  const std::size_t start = starts[random() % starts.size()];
  const std::size_t end = list.find('"', start);
  return end == std::string::npos ? std::nullopt : std::optional(list.substr(start, end - start));
}

}  // namespace

soak_readers::soak_readers(std::string base_url, reader_options options)
    : base_url_(std::move(base_url)), options_(options) {
  for (int i = 0; i < options_.frontends; ++i) {
    threads_.emplace_back([this, i] { poll(static_cast<unsigned>(i) + 1); });
  }
  threads_.emplace_back([this] { scrape(); });
}

soak_readers::~soak_readers() {
  stop();
}

void soak_readers::stop() {
  stopping_.store(true);
  for (std::thread& thread : threads_) {
    if (thread.joinable()) {
      thread.join();
    }
  }
}

bool soak_readers::pause_for(std::chrono::milliseconds pause) const {
  const auto until = std::chrono::steady_clock::now() + pause;
  while (!stopping_.load()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) {
      return true;
    }
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(until - now, std::chrono::milliseconds(200)));
  }
  return false;
}

void soak_readers::poll(unsigned seed) {
  // A daemon that stopped answering must not hang the reader past the next round.
  plain_connection connection(base_url_, std::chrono::seconds(30));
  std::mt19937 random(seed);
  // What this front-end shows: per page, the ETag and body of its last full answer.
  std::map<std::string, std::pair<std::string, std::string>> shown;
  auto fetch = [&](const std::string& path) -> std::string {
    auto& [etag, body] = shown[path];
    plain_connection::headers headers{{"Accept-Encoding", "identity"}};
    if (!etag.empty()) {
      headers.emplace_back("If-None-Match", etag);
    }
    answer got = connection.send("GET", path, headers);
    requests_.fetch_add(1);
    if (got.status == 304) {
      not_modified_.fetch_add(1);
    } else if (got.status == 200) {
      etag = got.etag;
      body = std::move(got.text);
    } else if (got.status == 0 || got.status >= 500) {
      failed_.fetch_add(1);
    }
    return body;
  };
  // The front-ends start spread over one round, not all at once.
  if (!pause_for(options_.poll_every * static_cast<int>(seed) / (options_.frontends + 1))) {
    return;
  }
  for (int round = 0; !stopping_.load(); ++round) {
    const std::string ns = (seed + static_cast<unsigned>(round)) % 2 == 0 ? "a" : "b";
    const std::string pods = fetch("/api/v1/core/pods?namespace=" + ns);
    fetch("/api/v1/core/jobs?namespace=" + ns);
    if (auto details = some_item_path(pods, "/api/v1/core/pods/", random)) {
      fetch(*details);
      shown.erase(*details);  // a details page is left, not kept open
    }
    fetch("/api/v1/problems");
    const std::string queues = fetch("/api/v1/kueue/clusterqueues");
    if (auto details = some_item_path(queues, "/api/v1/kueue/clusterqueues/", random)) {
      fetch(*details);
    }
    if (!pause_for(options_.poll_every)) {
      return;
    }
  }
}

void soak_readers::scrape() {
  plain_connection connection(base_url_, std::chrono::seconds(30));
  while (pause_for(options_.scrape_every)) {
    answer got = connection.send("GET", "/metrics");
    scrapes_.fetch_add(1);
    if (got.status != 200) {
      failed_.fetch_add(1);
    }
  }
}

}  // namespace sextant::integration
