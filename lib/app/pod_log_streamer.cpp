#include "app/pod_log_streamer.hpp"

#include <memory>

#include "sections/common/pod_logs.hpp"
#include "util/masking/secrets.hpp"
#include "util/scope_guard.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant {
namespace net = boost::asio;
using kube::use_tuple;

namespace {

// How long a log may be silent before its read is given up. Not followed: the API server sends
// what there is at once. Followed: a quiet container is normal, but not for this long.
constexpr auto read_idle_limit = std::chrono::seconds(120);
constexpr auto follow_idle_limit = std::chrono::hours(6);
// Until the API server answers with the log's header (it asks the kubelet first).
constexpr auto open_timeout = std::chrono::seconds(30);

// What the readers of one answer share with its writer; all on the event loop.
struct merge_run {
  merge_run(net::any_io_executor executor, const pod_log_plan& plan) : merger(plan.sources), wake(executor) {}

  log_merger merger;
  std::string pending;      // text for the client, in arrival order
  std::size_t opening = 0;  // logs whose header has not come yet
  std::size_t running = 0;  // logs not ended yet
  std::size_t opened = 0;   // logs that opened
  bool stopped = false;     // the client went away
  int first_status = 0;     // of the first log that could not be opened
  std::string first_error;
  std::vector<std::shared_ptr<kube::cancel_token>> cancels;
  net::steady_timer wake;  // the writer waits on it; readers cancel it when something happened

  void push(std::string text) {
    pending += text;
    wake.cancel();
  }
  void cancel_all() {
    stopped = true;
    for (const auto& token : cancels) {
      token->cancel();
    }
    wake.cancel();
  }
};

net::awaitable<void> wait(merge_run& run) {
  run.wake.expires_after(std::chrono::hours(24));
  auto [ignored] = co_await run.wake.async_wait(use_tuple);
  (void)ignored;
}

std::string log_target(const pod_log_source& source, const pod_log_plan& plan) {
  std::string target = "/api/v1/namespaces/" + source.namespace_ + "/pods/" + source.pod + "/log";
  char separator = '?';
  auto add = [&](const std::string& parameter) {
    target += separator + parameter;
    separator = '&';
  };
  if (!source.container.empty()) {
    add("container=" + source.container);
  }
  if (plan.follow) {
    add("follow=true");
  }
  if (plan.tail_lines) {
    add("tailLines=" + std::to_string(*plan.tail_lines));
  }
  return target;
}

// The API server's reason for a refusal: its Status message, else the HTTP code. The kubelet's
// words in it can quote an image's registry URL: masked (util/masking) before a client sees it.
std::string refusal(const kube::stream_reply& reply) {
  if (reply.status == 0) {
    return masking::operator_text(reply.error);
  }
  std::string message;
  try {
    message = string_or(json::parse(reply.body), {"message"});
  } catch (const json::exception&) {
    message.clear();
  }
  return masking::operator_text("the API server answered " + std::to_string(reply.status) +
                                (message.empty() ? "" : ": " + message));
}

net::awaitable<void> read_log(kube::api_client& client, std::shared_ptr<merge_run> run, std::size_t index,
                              pod_log_source source, pod_log_plan plan) {
  kube::request_options options;
  options.accept = "*/*";
  options.verb = "log";
  options.timeout = open_timeout;
  const auto idle = plan.follow ? std::chrono::duration_cast<std::chrono::seconds>(follow_idle_limit) : read_idle_limit;
  // A reader that throws still counts as done, or the answer would wait for it for ever.
  bool opening = true;
  undo_on_exception count_as_done([&run, &opening, index] {
    run->cancels[index]->clear_hook();
    if (opening) {
      --run->opening;
    }
    --run->running;
    run->wake.cancel();
  });
  kube::stream_reply reply = co_await client.open_stream(log_target(source, plan), options, idle, run->cancels[index]);
  --run->opening;
  opening = false;
  if (!reply.stream) {
    if (!run->stopped) {
      if (run->first_status == 0 && run->first_error.empty()) {
        run->first_status = reply.status;
        run->first_error = refusal(reply);
      }
      run->push(run->merger.open_failed(index, refusal(reply)));
    }
    count_as_done.disarm();
    --run->running;
    run->wake.cancel();
    co_return;
  }
  ++run->opened;
  run->wake.cancel();
  kube::body_stream& stream = *reply.stream;
  run->cancels[index]->set_hook([&stream] { stream.cancel(); });
  for (;;) {
    kube::stream_chunk chunk = co_await stream.read();
    if (run->stopped) {
      break;  // the client has gone: nobody reads what follows
    }
    if (!chunk.data.empty()) {
      run->push(run->merger.feed(index, chunk.data));
      continue;
    }
    if (chunk.done) {
      run->push(run->merger.end(index, {}, plan.follow));
      break;
    }
    if (!chunk.error.empty()) {
      run->push(run->merger.end(index, masking::operator_text(chunk.error), plan.follow));
      break;
    }
  }
  run->cancels[index]->clear_hook();
  count_as_done.disarm();
  --run->running;
  run->wake.cancel();
}

api_response none_opened(const merge_run& run, std::size_t count) {
  const std::string what = count == 1 ? "the log could not be read: "
                                      : "none of the " + std::to_string(count) + " logs could be read; the first: ";
  if (run.first_status == 404) {
    return error_response(404, "NotFound", what + run.first_error);
  }
  if (run.first_status == 403) {
    return error_response(403, "Forbidden", what + run.first_error);
  }
  return error_response(503, "Unavailable", what + run.first_error);
}

}  // namespace

net::awaitable<void> stream_pod_logs(kube::api_client& client, pod_log_plan plan, chunk_sink& sink) {
  auto executor = co_await net::this_coro::executor;
  auto run = std::make_shared<merge_run>(executor, plan);
  run->opening = run->running = plan.sources.size();
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    run->cancels.push_back(std::make_shared<kube::cancel_token>());
  }
  sink.on_gone([weak = std::weak_ptr<merge_run>(run)] {
    if (auto live = weak.lock()) {
      live->cancel_all();
    }
  });
  for (std::size_t i = 0; i < plan.sources.size(); ++i) {
    spawn_supervised(
        executor, "pod-log-reader",
        [&client, run, i, source = plan.sources[i], plan] { return read_log(client, run, i, source, plan); },
        on_task_failure::log_only);
  }
  // The status waits for every log's header: an error when none opened.
  while (run->opening > 0 && !run->stopped) {
    co_await wait(*run);
  }
  if (!run->stopped && run->opened == 0) {
    sink.fail(none_opened(*run, plan.sources.size()));
  } else if (!run->stopped) {
    std::string head;
    for (const std::string& notice : plan.notices) {
      head += run->merger.notice(notice);
    }
    run->pending.insert(0, head);
    for (;;) {
      if (!run->pending.empty()) {
        std::string text = std::move(run->pending);
        run->pending.clear();
        if (!co_await sink.write(std::move(text))) {
          run->cancel_all();
          break;
        }
        continue;
      }
      if (run->running == 0 || run->stopped) {
        break;
      }
      co_await wait(*run);
    }
  }
  // The readers use the client: they end (at once when cancelled) before the answer does.
  run->cancel_all();
  while (run->running > 0) {
    co_await wait(*run);
  }
}

}  // namespace sextant
