#pragma once
// The readers of the soak (bench/soak): front-ends polling the daemon's API as a UI does
// (lists, a details page, problems, each asked with the ETag of its last answer) and a
// Prometheus-style scrape of /metrics, each on its own thread and keep-alive connection,
// counting what they got until stopped. They only read: the soak samples the daemon itself.
#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace sextant::integration {

struct reader_options {
  int frontends = 8;
  std::chrono::milliseconds poll_every{2000};  // one round of pages per front-end
  std::chrono::seconds scrape_every{15};
};

class soak_readers {
 public:
  soak_readers(std::string base_url, reader_options options);
  ~soak_readers();
  soak_readers(const soak_readers&) = delete;
  soak_readers& operator=(const soak_readers&) = delete;

  void stop();
  long requests() const { return requests_.load(); }
  long not_modified() const { return not_modified_.load(); }  // 304: the ETag still held
  long failed() const { return failed_.load(); }              // no answer, or 5xx
  long scrapes() const { return scrapes_.load(); }

 private:
  void poll(unsigned seed);
  void scrape();
  // Sleeps `pause` unless stopped meanwhile; false once stopped.
  bool pause_for(std::chrono::milliseconds pause) const;

  std::string base_url_;
  reader_options options_;
  std::atomic<bool> stopping_{false};
  std::atomic<long> requests_{0};
  std::atomic<long> not_modified_{0};
  std::atomic<long> failed_{0};
  std::atomic<long> scrapes_{0};
  std::vector<std::thread> threads_;
};

}  // namespace sextant::integration
