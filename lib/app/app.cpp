// Over 400 lines because it is the one place that wires every part to the others (start-up,
// signals, settings, snapshot or live source, problem timers, metrics, shutdown); each part it
// calls lives in its own file. Split it by those sections when one grows.
#include "app/app.hpp"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <utility>

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "api/api_router.hpp"
#include "api/view_cache.hpp"
#include "app/live_cluster.hpp"
#include "auth/authenticator.hpp"
#include "auth/authorizer.hpp"
#include "auth/cut_memo.hpp"
#include "auth/request_access.hpp"
#include "http/self_signed_tls.hpp"
#include "kube/connection_choice.hpp"
#include "kube/document_poller.hpp"
#include "kube/live_source.hpp"
#include "runtime/snapshot_cluster.hpp"
#include "runtime/watch_plan.hpp"
#include "sections/registry.hpp"
#include "snapshot/snapshot_loader.hpp"
#include "util/file.hpp"
#include "util/scope_guard.hpp"
#include "util/supervised_spawn.hpp"

namespace sextant {
namespace asio = boost::asio;

namespace {

// Changes arrive in bursts (a relist, a snapshot): evaluate once after the burst.
constexpr auto evaluation_debounce = std::chrono::milliseconds(200);
// Under churn a pass begins no sooner than this after the one before began. A pass judged every
// object then (90 ms of CPU at 5000 Workloads and 20 000 Pods); back to back, as changes kept
// arriving during each, they took a fifth of a core at 50 changes a second. Most passes now judge
// only what changed (problems/rule_memo.hpp), but a rule that reads the clock or another kind
// still judges its kind whole. Problems are states that have lasted minutes, so a second's delay
// in seeing one changes no answer.
constexpr auto min_pass_interval = std::chrono::seconds(1);
// The longest a render runs before it lets the loop serve others.
constexpr auto render_slice = std::chrono::microseconds(2000);
// The same for a problem evaluation (17 ms in one step at 5000 Workloads before it was sliced).
constexpr auto problem_slice = std::chrono::microseconds(2000);
// How often a mounted settings ConfigMap is looked at; the kubelet itself updates the mount
// within about a minute of an edit.
constexpr auto settings_reload_interval = std::chrono::seconds(5);
// Changes after which freed memory is returned to the kernel (a relist is thousands).
constexpr std::size_t trim_after_changes = 500;
// How often --insecure-allow-anyone says again that anyone may read everything.
constexpr auto anyone_warning_interval = std::chrono::minutes(1);
// Rounds of permission questions one request may need: its route, then the namespaces of a
// list, then the objects its answer joins.
constexpr int access_rounds = 5;
// A review is small and the API server answers it from memory.
constexpr auto review_timeout = std::chrono::seconds(10);
// The longest a step of the snapshot load runs before a signal can be acted on.
constexpr auto snapshot_slice = std::chrono::milliseconds(20);
// Per route: how long answers take to be ready (the dashboard's HTTP latency).
constexpr const char* http_duration_metric = "sextant_http_request_duration_seconds";

// Probes stay open to anyone: the kubelet sends no token.
bool open_to_anyone(const std::string& target) {
  const std::string path = target.substr(0, target.find('?'));
  return path == "/healthz" || path == "/readyz" || path == "/.well-known/sextant/ca.crt";
}

std::pair<std::string, unsigned short> split_listen(const std::string& listen) {
  auto colon = listen.rfind(':');
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost") {
    host = "127.0.0.1";
  }
  return {host, static_cast<unsigned short>(std::stoi(listen.substr(colon + 1)))};
}

}  // namespace

app::app(asio::io_context& io, daemon_config config)
    : io_(io),
      config_(std::move(config)),
      signals_(io, SIGINT, SIGTERM),
      notice_signals_(io, SIGHUP, SIGUSR1),
      debounce_timer_(io),
      due_timer_(io),
      settings_timer_(io),
      anyone_timer_(io) {
  if (config_.now) {
    clock_ = std::make_unique<fixed_clock>(*config_.now);
  } else {
    clock_ = std::make_unique<wall_clock>();
  }
  state_ = std::make_unique<daemon_state>(all_sections(), *clock_);
  // A task that must not stop and failed: exit with an error, so that the kubelet restarts the
  // daemon rather than leave it serving with a part dead.
  supervisor_of(io_).on_fatal([this](const std::string& task) {
    spdlog::critical("task {} cannot go on: stopping", task);
    exit_code_ = 1;
    shutdown();
  });
}

app::~app() = default;

void app::start() {
  if (std::string error = check_access_settings(config_); !error.empty()) {
    throw std::runtime_error(error);
  }
  state_->per_caller_views = effective_auth(config_) == "kubernetes";
  state_->views = std::make_unique<view_cache>(view_cache_limits{static_cast<std::size_t>(config_.view_cache_bytes),
                                                                 static_cast<std::size_t>(config_.view_cache_entries)});
  state_->limits.max_selector_terms = static_cast<std::size_t>(config_.max_selector_terms);
  state_->metrics_permission_path = config_.metrics_permission_path;
  load_settings();
  register_metrics();
  monitor_ = std::make_unique<loop_monitor>(io_, state_->metrics);
  state_->store.add_listener([this](const object_store::change&) {
    ++changes_since_trim_;
    schedule_problem_evaluation();
  });
  state_->store.add_completeness_listener([this](const kind_key&) { schedule_problem_evaluation(); });
  if (!config_.snapshot.empty()) {
    // Everything is read already: a category turned on is judged before the PUT answers.
    state_->source = std::make_unique<snapshot_cluster>([this] { evaluate_problems_at_once(); });
  }
  wait_for_signals();
  if (!config_.snapshot.empty()) {
    load_snapshot();
    if (stopping_) {
      return;  // stopped by a signal while loading: run() returns at once
    }
  } else {
    start_live();
  }
  start_access_control();
  auto [host, port] = split_listen(config_.listen);
  http_server_options options{host,
                              port,
                              config_.max_connections,
                              config_.max_request_bytes,
                              config_.idle_timeout_seconds,
                              config_.shutdown_grace_seconds,
                              config_.tls_cert,
                              config_.tls_key};
  options.large_answers_off_loop = true;
  options.tls_self_signed = make_own_certificate();
  options.head_timeout_seconds = config_.request_head_timeout_seconds;
  options.max_connections_per_client = config_.max_connections_per_client;
  server_ =
      std::make_unique<http_server>(io_, options, [this](api_request request) { return answer(std::move(request)); });
  server_->start();
  spdlog::info("serving the API on {}://{}:{}", effective_tls(config_) == "off" ? "http" : "https", host,
               server_->port());
  start_probes();
  if (config_.snapshot.empty()) {
    evaluate_problems_now();
  } else {
    evaluate_problems_at_once();  // a snapshot is read in full: its first answer has its problems
  }
  // From here on the loop serves. The load and the first evaluation above ran before it, so they
  // are start-up, not stalls (counted, they were the 0.45 s worst stall of every snapshot run).
  monitor_->start();
}

std::optional<self_signed_tls> app::make_own_certificate() {
  if (effective_tls(config_) != "self-signed") {
    return std::nullopt;
  }
  const std::vector<std::string> names = self_signed_names(config_.tls_sans);
  auto made = make_self_signed_tls(names);
  if (auto* error = std::get_if<std::string>(&made)) {
    throw std::runtime_error(*error);
  }
  self_signed_tls& own = std::get<self_signed_tls>(made);
  if (!config_.tls_ca_file.empty()) {
    if (std::string error = write_file_atomically(config_.tls_ca_file, own.ca_pem); !error.empty()) {
      throw std::runtime_error("--tls-ca-file: " + error);
    }
  }
  state_->tls_ca_pem = own.ca_pem;
  std::string listed;
  for (const std::string& name : names) {
    listed += (listed.empty() ? "" : ", ") + name;
  }
  spdlog::info("made a self-signed certificate for {}; its CA (SHA-256 {}) is served at /.well-known/sextant/ca.crt{}",
               listed, own.ca_sha256, config_.tls_ca_file.empty() ? "" : " and written to " + config_.tls_ca_file);
  return std::move(own);
}

asio::awaitable<api_response> app::answer(api_request request) {
  const std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  api_response response;
  if (authenticator_ && !open_to_anyone(request.target)) {
    response = co_await answer_caller(std::move(request));
  } else {
    api_router router(*state_);
    api_response rendered = co_await render(router, request);
    response = router.complete(request, std::move(rendered));
  }
  state_->metrics.observe(http_duration_metric, {{"route", response.route}},
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  co_return response;
}

asio::awaitable<api_response> app::answer_caller(api_request request) {
  authentication identity = co_await authenticator_->authenticate(std::move(request.authorization), request.client);
  if (!identity.who) {
    api_router router(*state_);
    const char* reason = identity.status == 401   ? "Unauthorized"
                         : identity.status == 429 ? "TooManyRequests"
                                                  : "Unavailable";
    api_response refusal = error_response(identity.status, reason, identity.message);
    if (identity.status == 401) {
      refusal.headers.emplace_back("WWW-Authenticate", "Bearer");
    }
    if (identity.status == 429 || identity.status == 503) {
      // A 503 is the API server's trouble, not the caller's: it says when to ask again.
      refusal.headers.emplace_back("Retry-After", std::to_string(std::max<long long>(1, identity.retry_after.count())));
    }
    refusal.route = "unauthenticated";
    co_return router.complete(request, std::move(refusal));
  }
  request_access access(
      *identity.who, [this](const caller& who, const access_check& check) { return authorizer_->known(who, check); },
      cut_memo_.get());
  api_router router(*state_, &access);
  for (int round = 1;; ++round) {
    api_response response = co_await render(router, request);
    if (access.decided()) {
      co_return router.complete(request, std::move(response));
    }
    // Not a co_await inside ?: — GCC 12 destroys such a temporary twice.
    undecided missing{"the answer needed more permission checks than expected", std::chrono::seconds(1)};
    if (round < access_rounds) {
      missing = co_await authorizer_->decide(access.who(), access.take_pending());
    }
    if (!missing.error.empty()) {
      api_response unavailable = error_response(503, "Unavailable", missing.error);
      unavailable.headers.emplace_back("Retry-After",
                                       std::to_string(std::max<long long>(1, missing.retry_after.count())));
      unavailable.route = response.route;
      co_return router.complete(request, std::move(unavailable));
    }
  }
}

asio::awaitable<api_response> app::render(api_router& router, const api_request& request) {
  using steady = std::chrono::steady_clock;
  steady::time_point started = steady::now();
  std::unique_ptr<answer_work> work = router.begin(request);
  // A long render (a 5000-item list, its gzip) runs a slice at a time; between slices the loop
  // serves other requests, watch events and probes.
  while (!work->step(render_slice)) {
    monitor_->step_took("http", steady::now() - started);
    co_await asio::post(io_, asio::use_awaitable);
    started = steady::now();
  }
  api_response response = work->take();
  monitor_->step_took("http", steady::now() - started);
  co_return response;
}

void app::start_access_control() {
  if (effective_auth(config_) == "none") {
    if (!loopback_listen(config_.listen)) {
      warn_anyone_may_read();
    }
    return;
  }
  // The reviews go through the daemon's own client, as its service account: the one write-like
  // request it makes, and one the API server answers without storing anything.
  kube::api_client& client = live_source_->client();
  auto post = [&client](std::string path, std::string body) {
    kube::request_options options;
    options.verb = "create";
    options.timeout = review_timeout;
    options.body_limit = std::uint64_t{1} << 20;
    return client.post(std::move(path), std::move(body), options);
  };
  // One server behind both kinds of review: when either finds it back after an outage, both treat
  // its "no" as possibly "not yet" for a while.
  auto recovery = std::make_shared<review_recovery>();
  const auto gate = [&recovery] { return review_gate(64, std::chrono::seconds(1), std::chrono::seconds(5), recovery); };
  authenticator_ = std::make_unique<authenticator>(
      post, std::chrono::seconds(config_.auth_cache_seconds), 4096,
      invalid_token_budget{static_cast<double>(config_.invalid_tokens_per_minute), 10}, gate());
  authorizer_ = std::make_unique<authorizer>(io_.get_executor(), post,
                                             std::chrono::seconds(config_.access_cache_seconds), 65536, gate());
  // A cut per caller and list, joined answer or problems: as many as the callers polling at once,
  // in 8 MB at most (cut_memo's default).
  cut_memo_ = std::make_unique<cut_memo>(std::chrono::seconds(config_.access_cache_seconds), 4096);
  spdlog::info("callers need a bearer token; they see only what their user may read");
}

void app::warn_anyone_may_read() {
  spdlog::warn("--auth=none on {}: anyone who reaches it reads every object the daemon caches", config_.listen);
  if (stopping_) {
    return;
  }
  anyone_timer_.expires_after(anyone_warning_interval);
  anyone_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) {
      warn_anyone_may_read();
    }
  });
}

int app::run() {
  io_.run();
  return exit_code_;
}

void app::wait_for_signals() {
  signals_.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (!ec) {
      spdlog::info("signal {} ({}) received: stopping", signal, signal == SIGTERM ? "SIGTERM" : "SIGINT");
      shutdown();
    }
  });
  wait_for_notices();
}

void app::wait_for_notices() {
  notice_signals_.async_wait([this](const boost::system::error_code& ec, int signal) {
    if (ec || stopping_) {
      return;
    }
    if (signal == SIGHUP) {
      reread_settings();
    } else {
      log_status();
    }
    wait_for_notices();
  });
}

void app::reread_settings() {
  if (!config_.settings_configmap_file.empty()) {
    spdlog::info("SIGHUP: re-reading the problem settings from the ConfigMap at {}", config_.settings_configmap_file);
    state_->settings.forget_last_look();
    reload_configmap_settings(false);
  } else if (!config_.settings_file.empty()) {
    spdlog::info("SIGHUP: re-reading the problem settings from {}", config_.settings_file);
    read_settings_file();
    state_->source->settings_changed();
  } else {
    spdlog::info(
        "SIGHUP: no settings file to re-read (--settings-file, --settings-configmap-file); other settings "
        "take a restart");
  }
}

void app::log_status() {
  std::size_t objects = 0;
  const auto kinds = state_->store.kinds();
  for (const kind_key& type : kinds) {
    objects += state_->store.count(type);
  }
  std::uint64_t failures = 0;
  for (const auto& [task, count] : supervisor_of(io_).failures()) {
    failures += count;
  }
  spdlog::info(
      "SIGUSR1: {} objects of {} kinds cached; {} problems current; {} connections open; {} task failures; "
      "{} problem evaluations",
      objects, kinds.size(), state_->problems.current().size(), server_ ? server_->open_connections() : 0, failures,
      state_->problems.evaluations());
}

void app::load_settings() {
  if (!config_.settings_file.empty() && !config_.settings_configmap_file.empty()) {
    throw std::runtime_error(
        "--settings-file and --settings-configmap-file are two homes for the same settings: choose one");
  }
  if (!config_.settings_configmap_file.empty()) {
    state_->settings = settings_home::in_configmap(config_.settings_configmap_file);
    reload_configmap_settings();
    return;
  }
  if (config_.settings_file.empty()) {
    return;
  }
  check_settings_directory(config_.settings_file);
  state_->settings = settings_home::in_file(config_.settings_file);
  read_settings_file();
}

void app::read_settings_file() {
  settings_load_result loaded = state_->settings.read();
  if (!loaded.error.empty()) {
    // Keep what is in force and leave the file alone: someone may want to fix it by hand.
    spdlog::error("problem settings not loaded, keeping the settings in force: {}", loaded.error);
    state_->settings.set_error(loaded.error);
    return;
  }
  state_->settings.set_error({});
  state_->apply_settings(loaded.enabled);
}

void app::check_settings_directory(const std::string& file) {
  // A PUT saves the file by writing a sibling and renaming it: the directory must be there, and
  // writable, or every change would fail long after start.
  std::filesystem::path directory = std::filesystem::path(file).parent_path();
  if (directory.empty()) {
    directory = ".";
  }
  std::error_code error;
  if (!std::filesystem::is_directory(directory, error)) {
    throw std::runtime_error("--settings-file " + file + ": directory " + directory.string() +
                             " does not exist; create it, or name a file in a directory that does");
  }
  if (::access(directory.c_str(), W_OK) != 0) {
    throw std::runtime_error("--settings-file " + file + ": directory " + directory.string() +
                             " cannot be written, so changes could not be saved");
  }
}

void app::reload_configmap_settings(bool again) {
  settings_home& home = state_->settings;
  if (home.changed_since_last_look()) {
    settings_load_result loaded = home.read();
    if (!loaded.error.empty()) {
      // Keep what is in force: a half-edited ConfigMap must not turn categories on or off.
      spdlog::error("problem settings ConfigMap not applied, keeping the settings in force: {}", loaded.error);
      home.set_error(loaded.error);
    } else {
      spdlog::info("problem settings read from the ConfigMap at {}", home.path().string());
      home.set_error({});
      state_->apply_settings(loaded.enabled);
      state_->source->settings_changed();
    }
  }
  if (stopping_ || !again) {
    return;
  }
  settings_timer_.expires_after(settings_reload_interval);
  settings_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) {
      reload_configmap_settings();
    }
  });
}

void app::load_snapshot() {
  std::error_code error;
  if (!std::filesystem::exists(config_.snapshot, error)) {
    throw std::runtime_error("--snapshot " + config_.snapshot + ": no such file or directory");
  }
  snapshot_limits limits;
  limits.max_file_bytes = config_.max_snapshot_file_bytes;
  limits.yaml_alias_nodes = static_cast<std::size_t>(config_.max_yaml_alias_nodes);
  snapshot_loader loader(state_->store, state_->served, state_->profiles, clock_->now(), limits);
  loader.begin(config_.snapshot);
  spdlog::info("snapshot {}: reading {} files", config_.snapshot, loader.files_to_read());
  // A step at a time on the loop, so that a signal is acted on between steps (the API is not
  // served yet: it starts once the snapshot is in).
  bool loaded = false;
  std::function<void()> next_step = [&] {
    if (stopping_) {
      return;
    }
    if (loader.step(snapshot_slice)) {
      loaded = true;
      return;
    }
    asio::post(io_, next_step);
  };
  asio::post(io_, next_step);
  while (!loaded && !stopping_ && io_.run_one() > 0) {
  }
  if (!loaded) {
    spdlog::info("snapshot {}: stopped before it was read whole", config_.snapshot);
    return;
  }
  snapshot_report report = loader.take_report();
  for (const load_problem& problem : report.errors) {
    spdlog::error("{}:{}: {}", problem.path, problem.line, problem.message);
  }
  for (const load_problem& warning : report.warnings) {
    spdlog::warn("{}:{}: {}", warning.path, warning.line, warning.message);
  }
  spdlog::info("snapshot {}: {}", config_.snapshot, report.summary());
  state_->settle_snapshot_lists(report.kinds_listed);
}

void app::start_live() {
  kube::connection_request request{config_.kubeconfig, config_.context, config_.in_cluster};
  kube::config_result connection = kube::choose_connection(request, kube::sources_from_environment(std::nullopt),
                                                           kube::in_cluster_from_environment());
  if (!connection.value) {
    throw std::runtime_error(connection.error);
  }
  auto live = std::make_shared<kube::live_source>(io_.get_executor(), std::move(*connection.value),
                                                  watch_planner_for(state_->catalog.sections()), state_->profiles,
                                                  state_->store, state_->served, state_->metrics, *clock_);
  if (std::string error = live->init(); !error.empty()) {
    throw std::runtime_error(error);
  }
  live->set_category_check([this](const std::string& category) { return state_->problems.enabled(category); });
  kube::live_source* source = live.get();
  state_->source = std::make_unique<live_cluster>(*source, [this] { schedule_problem_evaluation(); });
  // Documents beside the watches (Kueue's queue positions) go through the same client.
  poller_ =
      std::make_unique<kube::document_poller>(io_.get_executor(), state_->catalog.polled(), state_->store,
                                              state_->served, state_->documents, *clock_, [source](std::string target) {
                                                kube::request_options options;
                                                options.timeout = std::chrono::seconds(30);
                                                options.body_limit = std::uint64_t{64} << 20;
                                                return source->client().get(std::move(target), options);
                                              });
  live_source_ = std::move(live);
  live_source_->start();
  poller_->start();
}

void app::start_probes() {
  if (config_.probe_listen.empty()) {
    return;
  }
  auto status = std::make_shared<probe_status>();
  probe_publisher_ = std::make_unique<probe_publisher>(io_, status, [this] { return api_router(*state_).readiness(); });
  probe_publisher_->start();
  auto [host, port] = split_listen(config_.probe_listen);
  // Probes are tiny: a few connections, short requests, no keep-alive to speak of.
  http_server_options options{host, port, 16, 8192, 30, 1, {}, {}};
  probe_server_ = std::make_unique<probe_server>(options, status);
  probe_server_->start();
  spdlog::info("serving /healthz and /readyz on {}:{}", host, probe_server_->port());
}

void app::schedule_problem_evaluation() {
  if (evaluation_pending_ || stopping_) {
    return;
  }
  evaluation_pending_ = true;
  std::chrono::steady_clock::duration wait = evaluation_debounce;
  if (last_pass_began_) {
    wait = std::max(wait, *last_pass_began_ + min_pass_interval - std::chrono::steady_clock::now());
  }
  debounce_timer_.expires_after(wait);
  debounce_timer_.async_wait([this](const boost::system::error_code& ec) {
    evaluation_pending_ = false;
    if (!ec) {
      evaluate_problems_now();
    }
  });
}

void app::evaluate_problems_now() {
  if (stopping_) {
    return;
  }
  if (problem_pass_running_) {
    evaluate_again_ = true;  // the pass under way keeps going: under churn one still finishes
    return;
  }
  problem_pass_running_ = true;
  last_pass_began_ = std::chrono::steady_clock::now();
  state_->problems.begin(state_->context());
  spawn_supervised(
      io_, "problem-pass", [this] { return judge_problems(); }, on_task_failure::log_only);
}

void app::evaluate_problems_at_once() {
  if (stopping_) {
    return;
  }
  const auto started = std::chrono::steady_clock::now();
  state_->evaluate_problems();  // a pass under way is abandoned; its coroutine then ends
  monitor_->step_took("problems", std::chrono::steady_clock::now() - started);
  after_problem_pass();
}

asio::awaitable<void> app::judge_problems() {
  using steady = std::chrono::steady_clock;
  // A pass that throws must not leave the flag set: no pass would ever start again. The next
  // one is scheduled as after a change (at most one a second).
  undo_on_exception pass_guard([this] {
    problem_pass_running_ = false;
    schedule_problem_evaluation();
  });
  while (!stopping_) {
    const steady::time_point started = steady::now();
    const bool done = state_->problems.step(problem_slice);
    monitor_->step_took("problems", steady::now() - started);
    if (done) {
      break;
    }
    co_await asio::post(io_, asio::use_awaitable);
  }
  pass_guard.disarm();
  problem_pass_running_ = false;
  if (stopping_) {
    co_return;
  }
  after_problem_pass();
  if (std::exchange(evaluate_again_, false)) {
    schedule_problem_evaluation();  // not at once: see min_pass_interval
  }
}

void app::after_problem_pass() {
  release_freed_memory();
  due_timer_.cancel();
  const std::optional<time_point> next_due = state_->problems.next_due();
  if (!next_due) {
    return;
  }
  // Wall time to steady time: the wait is how far the due time is from now.
  auto wait = *next_due - clock_->now();
  if (wait < std::chrono::seconds(0)) {
    wait = std::chrono::seconds(0);
  }
  if (config_.now) {
    return;  // a fixed clock never reaches a later time
  }
  due_timer_.expires_after(std::chrono::duration_cast<std::chrono::steady_clock::duration>(wait) +
                           std::chrono::milliseconds(10));
  due_timer_.async_wait([this](const boost::system::error_code& ec) {
    if (!ec) {
      evaluate_problems_now();
    }
  });
}

void app::release_freed_memory() {
  // A relist frees the list's text, its parse buffers and the objects it replaced; glibc keeps
  // freed heap mapped, so the Pod's RSS (what its memory limit sees) would stay at the peak.
  // After a burst of changes, hand what is free back to the kernel.
  if (changes_since_trim_ < trim_after_changes) {
    return;
  }
  changes_since_trim_ = 0;
  const auto started = std::chrono::steady_clock::now();
  malloc_trim(0);
  monitor_->step_took("malloc_trim", std::chrono::steady_clock::now() - started);
}

void app::register_metrics() {
  metrics_registry& metrics = state_->metrics;
  problem_metrics_ = std::make_unique<problem_metrics>(metrics);
  metrics.describe("sextant_cached_objects", metrics_registry::metric_type::gauge, "Objects cached per kind.");
  metrics.describe("sextant_cache_bytes", metrics_registry::metric_type::gauge,
                   "Bytes the cached objects of a kind hold: records, packed bodies and long identity strings "
                   "(not the store's indexes or the allocator's overhead).");
  metrics.describe("sextant_http_requests_total", metrics_registry::metric_type::counter,
                   "HTTP requests answered, by route and status code.");
  metrics.describe_histogram(http_duration_metric,
                             "From a request read to its answer ready to send (caller reviews and rendering "
                             "included, the write not), by route.",
                             {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5});
  metrics.describe("sextant_problem_evaluations_total", metrics_registry::metric_type::counter,
                   "Times the problem rules were evaluated.");
  metrics.describe("sextant_problem_category_evaluated", metrics_registry::metric_type::gauge,
                   "Whether a problem category has judged every object it needs (1), or still waits for a kind "
                   "to be read or is off (0).");
  metrics.describe("sextant_view_renders_total", metrics_registry::metric_type::counter,
                   "Views rendered: list models, and answers (pages, details, problems) built from them.");
  metrics.describe("sextant_view_cache_hits_total", metrics_registry::metric_type::counter,
                   "Answers served from the view cache without rendering.");
  metrics.describe("sextant_view_cache_bytes", metrics_registry::metric_type::gauge,
                   "Bytes the view cache holds, every byte counted (keys, bodies gzipped or not, ETags, joins, "
                   "entries): by tier, views (whole answers) and cuts (a list's pages and filtered subsets), and "
                   "lists (the rendered list models pages are cut from).");
  metrics.describe("sextant_task_failures_total", metrics_registry::metric_type::counter,
                   "Long-lived tasks (watches, pollers, the accept loop, problem passes, connections) that "
                   "failed with an exception, by task; each was logged, then restarted, ended or the daemon exited.");
  metrics.describe("sextant_view_cache_answers", metrics_registry::metric_type::gauge,
                   "Answers the view cache holds, by tier.");
  metrics.describe("sextant_http_connections_reclaimed_total", metrics_registry::metric_type::counter,
                   "Idle keep-alive connections closed to make room for a new one.");
  metrics.describe("sextant_http_accept_failures_total", metrics_registry::metric_type::counter,
                   "Connections the listener failed to accept (out of file descriptors, and the like).");
  metrics.add_collector([this](metrics_registry& m) {
    problem_metrics_->collect(state_->problems, m);
    m.clear("sextant_cached_objects");
    m.clear("sextant_cache_bytes");
    for (const kind_key& type : state_->store.kinds()) {
      m.set("sextant_cached_objects", {{"kind", type.to_string()}}, static_cast<double>(state_->store.count(type)));
      m.set("sextant_cache_bytes", {{"kind", type.to_string()}}, static_cast<double>(state_->store.held_bytes(type)));
    }
    m.set("sextant_problem_evaluations_total", {}, static_cast<double>(state_->problems.evaluations()));
    m.clear("sextant_problem_category_evaluated");
    for (const problem_category& category : state_->problems.categories()) {
      m.set("sextant_problem_category_evaluated", {{"category", category.id}},
            state_->problems.status(category.id).evaluated ? 1 : 0);
    }
    const view_cache& views = *state_->views;
    m.set("sextant_view_renders_total", {{"what", "list"}}, static_cast<double>(views.list_renders()));
    m.set("sextant_view_renders_total", {{"what", "answer"}}, static_cast<double>(views.answer_renders()));
    m.set("sextant_view_cache_hits_total", {}, static_cast<double>(views.hits()));
    m.set("sextant_view_cache_bytes", {{"tier", "views"}}, static_cast<double>(views.bytes(cache_tier::views)));
    m.set("sextant_view_cache_bytes", {{"tier", "cuts"}}, static_cast<double>(views.bytes(cache_tier::cuts)));
    m.set("sextant_view_cache_bytes", {{"tier", "lists"}}, static_cast<double>(views.model_bytes()));
    m.set("sextant_view_cache_answers", {{"tier", "views"}}, static_cast<double>(views.answers(cache_tier::views)));
    m.set("sextant_view_cache_answers", {{"tier", "cuts"}}, static_cast<double>(views.answers(cache_tier::cuts)));
    if (server_) {
      m.set("sextant_http_connections_reclaimed_total", {}, static_cast<double>(server_->reclaimed_connections()));
      m.set("sextant_http_accept_failures_total", {}, static_cast<double>(server_->accept_failures()));
    }
    for (const auto& [task, count] : supervisor_of(io_).failures()) {
      m.set("sextant_task_failures_total", {{"task", task}}, static_cast<double>(count));
    }
  });
}

void app::shutdown() {
  if (stopping_) {
    return;
  }
  stopping_ = true;
  debounce_timer_.cancel();
  due_timer_.cancel();
  settings_timer_.cancel();
  anyone_timer_.cancel();
  signals_.cancel();
  notice_signals_.cancel();
  if (monitor_) {
    monitor_->stop();
  }
  if (probe_publisher_) {
    probe_publisher_->stop();
  }
  if (probe_server_) {
    probe_server_->stop();
  }
  if (poller_) {
    poller_->stop();
  }
  if (live_source_) {
    // Its watches end as the loop runs on; it is destroyed with the app, after the loop.
    live_source_->stop();
  }
  if (server_) {
    server_->stop([this] { io_.stop(); });
  } else {
    io_.stop();
  }
}

}  // namespace sextant
