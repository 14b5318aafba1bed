#include "kube/credential_source.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "kube/base64.hpp"
#include "kube/process_runner.hpp"

namespace sextant::kube {
namespace {

std::string trim(std::string text) {
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; };
  while (!text.empty() && space(text.back())) {
    text.pop_back();
  }
  std::size_t start = 0;
  while (start < text.size() && space(text[start])) {
    ++start;
  }
  return text.substr(start);
}

std::string last_lines(const std::string& text, std::size_t max_chars) {
  std::string out = trim(text);
  if (out.size() > max_chars) {
    out = "…" + out.substr(out.size() - max_chars);
  }
  return out;
}

}  // namespace

credential_source::credential_source(net::any_io_executor executor, const connection_config& config, const clock& wall,
                                     credential_options options)
    : executor_(std::move(executor)),
      config_(config),
      wall_(wall),
      plugin_done_(executor_),
      options_(options),
      plugin_backoff_(options.plugin_backoff) {}

std::string credential_source::origin() const {
  if (config_.exec) {
    return "the exec credential plugin " + config_.exec->command;
  }
  if (!config_.token_file.empty()) {
    return "the token file " + config_.token_file;
  }
  if (!config_.token.empty()) {
    return "the token of " + config_.source;
  }
  if (!config_.username.empty() || !config_.password.empty()) {
    return "the username and password of " + config_.source;
  }
  if (!config_.client_cert_pem.empty()) {
    return "the client certificate of " + config_.source;
  }
  return "no credentials (anonymous) from " + config_.source;
}

bool credential_source::refresh_token_file(std::string& error) {
  const std::optional<file_stamp> stamp = stamp_of(config_.token_file);
  if (!stamp) {
    if (!file_token_.empty()) {
      return true;  // keep the last token until the file is back (it is replaced by rename)
    }
    error = "token file " + config_.token_file + ": " + std::strerror(errno);
    return false;
  }
  if (file_stamp_ == stamp && !file_invalidated_) {
    return true;
  }
  std::ifstream in(config_.token_file, std::ios::binary);
  if (!in) {
    if (!file_token_.empty()) {
      return true;
    }
    error = "token file " + config_.token_file + ": " + std::strerror(errno);
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  std::string token = trim(text.str());
  file_stamp_ = stamp;
  file_invalidated_ = false;
  if (token.empty()) {
    error = "token file " + config_.token_file + " is empty";
    return false;
  }
  if (token != file_token_) {
    file_token_ = std::move(token);
    ++generation_;
  }
  return true;
}

bool credential_source::exec_credential_fresh() const {
  return exec_ && (!exec_->expires || wall_.now() < *exec_->expires);
}

net::awaitable<void> credential_source::run_plugin() {
  const exec_config& exec = *config_.exec;
  plugin_running_ = true;
  plugin_done_.expires_at(std::chrono::steady_clock::time_point::max());
  ++plugin_runs_;

  process_request request;
  request.program = exec.command;
  request.args = exec.args;
  request.env = exec.env;
  request.env.emplace_back("KUBERNETES_EXEC_INFO", exec_info(exec, config_));
  request.timeout = options_.plugin_timeout;
  process_result ran = co_await run_process(std::move(request));

  const std::string who = "exec credential plugin " + exec.command;
  std::string error;
  if (!ran.spawn_error.empty()) {
    error = who + ": " + ran.spawn_error + (exec.install_hint.empty() ? "" : " (" + trim(exec.install_hint) + ")");
  } else if (ran.timed_out) {
    error = who + " did not finish within " + std::to_string(options_.plugin_timeout.count()) + "s and was stopped";
  } else if (ran.exit_code != 0) {
    error = who + " failed (exit code " + std::to_string(ran.exit_code) + ")" +
            (ran.err.empty() ? "" : ": " + last_lines(ran.err, 400));
  } else {
    exec_credential_result parsed = parse_exec_credential(ran.out, exec.api_version);
    if (parsed.value) {
      exec_ = std::move(parsed.value);
      ++generation_;
    } else {
      error = who + ": " + parsed.error;
    }
  }
  plugin_error_ = error;
  if (!error.empty()) {
    exec_.reset();
    const auto now = std::chrono::steady_clock::now();
    plugin_retry_at_ = now + plugin_backoff_.next(now);
  } else {
    plugin_backoff_.reset();
  }
  plugin_running_ = false;
  plugin_done_.cancel();
}

net::awaitable<auth_result> credential_source::current() {
  std::string error;
  if (!config_.token_file.empty() && !refresh_token_file(error)) {
    co_return auth_result{std::nullopt, error};
  }
  if (config_.exec) {
    while (!exec_credential_fresh()) {
      if (plugin_running_) {
        co_await plugin_done_.async_wait(use_tuple);
        if (!plugin_error_.empty()) {
          co_return auth_result{std::nullopt, plugin_error_};
        }
        continue;
      }
      if (!plugin_error_.empty() && std::chrono::steady_clock::now() < plugin_retry_at_) {
        co_return auth_result{std::nullopt, plugin_error_};
      }
      co_await run_plugin();
      if (!plugin_error_.empty()) {
        co_return auth_result{std::nullopt, plugin_error_};
      }
      break;  // a credential that is already stale is still tried once, not re-fetched in a loop
    }
  }
  co_return auth_result{material(), {}};
}

auth_material credential_source::material() const {
  auth_material out;
  out.generation = generation_;
  if (exec_ && !exec_->token.empty()) {
    out.authorization = "Bearer " + exec_->token;
  } else if (!file_token_.empty()) {
    out.authorization = "Bearer " + file_token_;
  } else if (!config_.token.empty()) {
    out.authorization = "Bearer " + config_.token;
  } else if (!config_.username.empty() || !config_.password.empty()) {
    out.authorization = "Basic " + base64_encode(config_.username + ":" + config_.password);
  }
  if (exec_ && !exec_->client_cert_pem.empty()) {
    out.client_cert_pem = exec_->client_cert_pem;
    out.client_key_pem = exec_->client_key_pem;
  } else {
    out.client_cert_pem = config_.client_cert_pem;
    out.client_key_pem = config_.client_key_pem;
  }
  return out;
}

bool credential_source::invalidate(std::uint64_t generation) {
  const bool refreshable = !config_.token_file.empty() || config_.exec.has_value();
  if (generation != generation_) {
    return refreshable;  // already replaced since that request was sent
  }
  if (!config_.token_file.empty()) {
    file_invalidated_ = true;
  }
  if (config_.exec) {
    exec_.reset();
    plugin_error_.clear();
  }
  return refreshable;
}

}  // namespace sextant::kube
