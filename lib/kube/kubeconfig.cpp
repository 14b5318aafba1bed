// Over 400 lines because it is kubectl's one merge-and-resolve procedure: reading a cluster and a
// user needs the merged files' entries and where each came from.
#include "kube/kubeconfig.hpp"

#include <cstdlib>
#include <map>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kube/base64.hpp"
#include "util/file.hpp"

namespace sextant::kube {
namespace fs = std::filesystem;

namespace {

// One named entry (cluster, user or context) with the file it came from.
struct entry {
  YAML::Node body;
  fs::path file;
};

struct merged_config {
  std::map<std::string, entry> clusters;
  std::map<std::string, entry> users;
  std::map<std::string, entry> contexts;
  std::string current_context;
  std::vector<fs::path> files;
};

std::string in_quotes(const std::string& text) {
  return "\"" + text + "\"";
}

std::string list_files(const std::vector<fs::path>& files) {
  std::string out;
  for (const fs::path& file : files) {
    out += (out.empty() ? "" : ", ") + file.string();
  }
  return out;
}

// A scalar member as text; nullopt when absent or null. Sets `error` when it is not a scalar.
std::optional<std::string> scalar(const YAML::Node& node, const char* key, const std::string& where,
                                  std::string& error) {
  if (!node.IsDefined() || !node.IsMap()) {  // IsMap alone throws on the node of a missing key
    return std::nullopt;
  }
  YAML::Node value = node[key];
  if (!value || value.IsNull()) {
    return std::nullopt;
  }
  if (!value.IsScalar()) {
    error = where + "." + key + " should be a single value";
    return std::nullopt;
  }
  return value.Scalar();
}

bool truthy(const std::string& text) {
  return text == "true" || text == "True" || text == "TRUE" || text == "yes";
}

// Adds the named entries of one section ("clusters") of a file; the first definition wins.
std::string merge_section(const YAML::Node& root, const char* section, const char* member, const fs::path& file,
                          std::map<std::string, entry>& into) {
  YAML::Node list = root[section];
  if (!list || list.IsNull()) {
    return {};
  }
  if (!list.IsSequence()) {
    return "kubeconfig " + file.string() + ": " + section + " should be a list";
  }
  for (const YAML::Node& item : list) {
    if (!item.IsMap() || !item["name"] || !item["name"].IsScalar()) {
      return "kubeconfig " + file.string() + ": an entry of " + section + " has no name";
    }
    std::string name = item["name"].Scalar();
    if (!into.contains(name)) {
      into.emplace(name, entry{item[member], file});
    }
  }
  return {};
}

std::string merge_file(const fs::path& file, const std::string& text, merged_config& config) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return "kubeconfig " + file.string() + " is not valid YAML: " + e.what();
  }
  config.files.push_back(file);
  if (!root || root.IsNull()) {
    return {};  // an empty file adds nothing, as for kubectl
  }
  if (!root.IsMap()) {
    return "kubeconfig " + file.string() + " is not a kubeconfig (expected a mapping at the top)";
  }
  for (auto [section, member] :
       {std::pair{"clusters", "cluster"}, std::pair{"users", "user"}, std::pair{"contexts", "context"}}) {
    auto& into = std::string_view(section) == "clusters" ? config.clusters
                 : std::string_view(section) == "users"  ? config.users
                                                         : config.contexts;
    if (std::string error = merge_section(root, section, member, file, into); !error.empty()) {
      return error;
    }
  }
  if (config.current_context.empty() && root["current-context"] && root["current-context"].IsScalar()) {
    config.current_context = root["current-context"].Scalar();
  }
  return {};
}

// A path from a kubeconfig, taken relative to the file that named it.
fs::path resolve_path(const std::string& path, const fs::path& file) {
  fs::path p(path);
  if (p.is_absolute()) {
    return p;
  }
  return file.parent_path() / p;
}

// Reads a `name` / `name-data` pair: the inline data (base64) or the file's contents.
bool read_pem(const YAML::Node& body, const std::string& where, const char* file_key, const char* data_key,
              const fs::path& config_file, std::string& out, std::string& error, std::string* read_from = nullptr) {
  auto data = scalar(body, data_key, where, error);
  if (!error.empty()) {
    return false;
  }
  if (data && !data->empty()) {
    auto decoded = base64_decode(*data);
    if (!decoded) {
      error = where + "." + data_key + " is not valid base64";
      return false;
    }
    out = std::move(*decoded);
    return true;
  }
  auto path = scalar(body, file_key, where, error);
  if (!error.empty()) {
    return false;
  }
  if (path && !path->empty()) {
    std::string read_error;
    auto text = read_file(resolve_path(*path, config_file), read_error);
    if (!text) {
      error = where + "." + file_key + ": " + read_error;
      return false;
    }
    out = std::move(*text);
    if (read_from != nullptr) {
      *read_from = resolve_path(*path, config_file).string();
    }
  }
  return true;
}

bool read_cluster(const entry& cluster, const std::string& where, connection_config& config, std::string& error) {
  const YAML::Node& body = cluster.body;
  if (!body || !body.IsMap()) {
    error = where + " is empty";
    return false;
  }
  auto server = scalar(body, "server", where, error);
  if (!error.empty()) {
    return false;
  }
  if (!server || server->empty()) {
    error = where + ".server is not set";
    return false;
  }
  url_result parsed = parse_url(*server);
  if (!parsed.value) {
    error = where + ".server: " + parsed.error;
    return false;
  }
  if (parsed.value->scheme != "https") {
    error = where + ".server " + in_quotes(*server) + " is not https://; sextantd only talks TLS to API servers";
    return false;
  }
  config.server = std::move(*parsed.value);

  if (!read_pem(body, where, "certificate-authority", "certificate-authority-data", cluster.file, config.ca_pem, error,
                &config.ca_file)) {
    return false;
  }
  auto insecure = scalar(body, "insecure-skip-tls-verify", where, error);
  config.insecure_skip_tls_verify = insecure && truthy(*insecure);
  if (config.insecure_skip_tls_verify && !config.ca_pem.empty()) {
    error = where +
            " sets both insecure-skip-tls-verify and a certificate-authority; kubectl refuses this too, "
            "remove one";
    return false;
  }
  config.tls_server_name = scalar(body, "tls-server-name", where, error).value_or("");
  if (auto proxy = scalar(body, "proxy-url", where, error); proxy && !proxy->empty()) {
    url_result proxy_url = parse_url(*proxy);
    if (!proxy_url.value) {
      error = where + ".proxy-url: " + proxy_url.error;
      return false;
    }
    if (proxy_url.value->scheme != "http") {
      error = where + ".proxy-url " + in_quotes(*proxy) + ": only http:// proxies (HTTP CONNECT) are supported";
      return false;
    }
    config.proxy = std::move(*proxy_url.value);
  }
  return error.empty();
}

bool read_exec(const YAML::Node& exec, const std::string& where, const fs::path& config_file, connection_config& config,
               std::string& error) {
  exec_config out;
  out.api_version = scalar(exec, "apiVersion", where, error).value_or("");
  if (out.api_version != "client.authentication.k8s.io/v1" &&
      out.api_version != "client.authentication.k8s.io/v1beta1") {
    error = where + ".apiVersion " + in_quotes(out.api_version) +
            " is not supported; use client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1";
    return false;
  }
  out.command = scalar(exec, "command", where, error).value_or("");
  if (out.command.empty()) {
    error = where + ".command is not set";
    return false;
  }
  if (out.command.find('/') != std::string::npos) {
    out.command = resolve_path(out.command, config_file).string();
  }
  if (YAML::Node args = exec["args"]; args && !args.IsNull()) {
    if (!args.IsSequence()) {
      error = where + ".args should be a list";
      return false;
    }
    for (const YAML::Node& arg : args) {
      out.args.push_back(arg.IsScalar() ? arg.Scalar() : std::string());
    }
  }
  if (YAML::Node env = exec["env"]; env && !env.IsNull()) {
    if (!env.IsSequence()) {
      error = where + ".env should be a list of {name, value}";
      return false;
    }
    for (const YAML::Node& variable : env) {
      auto name = scalar(variable, "name", where + ".env", error);
      if (!name || name->empty()) {
        error = where + ".env has an entry without a name";
        return false;
      }
      out.env.emplace_back(*name, scalar(variable, "value", where + ".env", error).value_or(""));
    }
  }
  out.install_hint = scalar(exec, "installHint", where, error).value_or("");
  auto cluster_info = scalar(exec, "provideClusterInfo", where, error);
  out.provide_cluster_info = cluster_info && truthy(*cluster_info);
  out.interactive_mode = scalar(exec, "interactiveMode", where, error).value_or("");
  if (out.interactive_mode.empty()) {
    if (out.api_version == "client.authentication.k8s.io/v1") {
      error = where + ".interactiveMode is required for client.authentication.k8s.io/v1 (use Never or IfAvailable)";
      return false;
    }
    out.interactive_mode = "IfAvailable";
  } else if (out.interactive_mode == "Always") {
    error = where + ".interactiveMode is Always, but sextantd runs without a terminal; use Never or IfAvailable";
    return false;
  } else if (out.interactive_mode != "Never" && out.interactive_mode != "IfAvailable") {
    error = where + ".interactiveMode " + in_quotes(out.interactive_mode) + " is not Never, IfAvailable or Always";
    return false;
  }
  if (!error.empty()) {
    return false;
  }
  config.exec = std::move(out);
  return true;
}

bool read_user(const entry& user, const std::string& where, connection_config& config, std::string& error) {
  const YAML::Node& body = user.body;
  if (!body || body.IsNull()) {
    return true;  // an empty user: anonymous
  }
  if (!body.IsMap()) {
    error = where + " should be a mapping";
    return false;
  }
  if (YAML::Node provider = body["auth-provider"]; provider && !provider.IsNull()) {
    std::string name = provider["name"] && provider["name"].IsScalar() ? provider["name"].Scalar() : "?";
    error = where + ".auth-provider (" + name +
            ") is not supported (kubectl removed these too); use an exec credential plugin instead";
    return false;
  }
  if (!read_pem(body, where, "client-certificate", "client-certificate-data", user.file, config.client_cert_pem,
                error) ||
      !read_pem(body, where, "client-key", "client-key-data", user.file, config.client_key_pem, error)) {
    return false;
  }
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    error = where + (config.client_cert_pem.empty() ? " has a client-key but no client-certificate"
                                                    : " has a client-certificate but no client-key");
    return false;
  }
  config.token = scalar(body, "token", where, error).value_or("");
  if (auto token_file = scalar(body, "tokenFile", where, error); token_file && !token_file->empty()) {
    config.token_file = resolve_path(*token_file, user.file).string();
    std::string read_error;
    if (!read_file(config.token_file, read_error)) {
      error = where + ".tokenFile: " + read_error;
      return false;
    }
  }
  config.username = scalar(body, "username", where, error).value_or("");
  config.password = scalar(body, "password", where, error).value_or("");
  if (!error.empty()) {
    return false;
  }
  if ((!config.username.empty() || !config.password.empty()) && (!config.token.empty() || !config.token_file.empty())) {
    error = where + " sets both username/password and a token; kubectl refuses this too, keep one";
    return false;
  }
  if (YAML::Node exec = body["exec"]; exec && !exec.IsNull()) {
    if (!exec.IsMap()) {
      error = where + ".exec should be a mapping";
      return false;
    }
    if (!read_exec(exec, where + ".exec", user.file, config, error)) {
      return false;
    }
  }
  return true;
}

}  // namespace

kubeconfig_sources sources_from_environment(std::optional<fs::path> explicit_path) {
  kubeconfig_sources sources;
  sources.explicit_path = std::move(explicit_path);
  if (const char* env = std::getenv("KUBECONFIG")) {
    sources.kubeconfig_env = env;
  }
  if (const char* home = std::getenv("HOME")) {
    sources.home = home;
  }
  return sources;
}

namespace {

config_result resolve_kubeconfig(const kubeconfig_sources& sources, const std::string& context) {
  auto fail = [](std::string message) { return config_result{std::nullopt, std::move(message)}; };
  merged_config merged;
  std::vector<fs::path> candidates;
  bool must_exist = true;
  if (sources.explicit_path) {
    candidates.push_back(*sources.explicit_path);
  } else if (sources.kubeconfig_env && !sources.kubeconfig_env->empty()) {
    must_exist = false;  // kubectl skips missing files of $KUBECONFIG
    std::string_view list = *sources.kubeconfig_env;
    while (!list.empty()) {
      auto colon = list.find(':');
      std::string_view item = list.substr(0, colon);
      if (!item.empty()) {
        candidates.emplace_back(std::string(item));
      }
      list = colon == std::string_view::npos ? std::string_view{} : list.substr(colon + 1);
    }
  } else if (!sources.home.empty()) {
    candidates.push_back(sources.home / ".kube" / "config");
  } else {
    return fail("no kubeconfig: --kubeconfig not given, $KUBECONFIG and $HOME not set");
  }

  for (const fs::path& file : candidates) {
    std::error_code ec;
    if (!must_exist && !fs::exists(file, ec)) {
      continue;
    }
    std::string error;
    auto text = read_file(file, error);
    if (!text) {
      return fail("kubeconfig: " + error);
    }
    if (std::string merge_error = merge_file(fs::absolute(file, ec), *text, merged); !merge_error.empty()) {
      return fail(merge_error);
    }
  }
  if (merged.files.empty()) {
    return fail("no kubeconfig found: none of the files in $KUBECONFIG (" + *sources.kubeconfig_env + ") exists");
  }

  const std::string files = list_files(merged.files);
  std::string context_name = context.empty() ? merged.current_context : context;
  if (context_name.empty()) {
    return fail("kubeconfig " + files + ": current-context is not set and no --context was given");
  }
  auto ctx = merged.contexts.find(context_name);
  if (ctx == merged.contexts.end()) {
    return fail("kubeconfig " + files + ": context " + in_quotes(context_name) + " is not defined" +
                (context.empty() ? " (it is the current-context)" : ""));
  }
  const std::string ctx_where = "contexts[" + in_quotes(context_name) + "].context";
  std::string error;
  auto cluster_name = scalar(ctx->second.body, "cluster", ctx_where, error);
  auto user_name = scalar(ctx->second.body, "user", ctx_where, error);
  connection_config config;
  config.namespace_ = scalar(ctx->second.body, "namespace", ctx_where, error).value_or("default");
  if (!error.empty()) {
    return fail("kubeconfig " + ctx->second.file.string() + ": " + error);
  }
  if (!cluster_name || cluster_name->empty()) {
    return fail("kubeconfig " + ctx->second.file.string() + ": " + ctx_where + ".cluster is not set");
  }
  auto cluster = merged.clusters.find(*cluster_name);
  if (cluster == merged.clusters.end()) {
    return fail("kubeconfig " + files + ": " + ctx_where + ".cluster names " + in_quotes(*cluster_name) +
                ", which no clusters entry defines");
  }
  if (!read_cluster(cluster->second, "clusters[" + in_quotes(*cluster_name) + "].cluster", config, error)) {
    return fail("kubeconfig " + cluster->second.file.string() + ": " + error);
  }
  if (user_name && !user_name->empty()) {
    auto user = merged.users.find(*user_name);
    if (user == merged.users.end()) {
      return fail("kubeconfig " + files + ": " + ctx_where + ".user names " + in_quotes(*user_name) +
                  ", which no users entry defines");
    }
    if (!read_user(user->second, "users[" + in_quotes(*user_name) + "].user", config, error)) {
      return fail("kubeconfig " + user->second.file.string() + ": " + error);
    }
  }
  config.source = "kubeconfig " + files + ", context " + context_name;
  return {std::move(config), {}};
}

}  // namespace

config_result load_kubeconfig(const kubeconfig_sources& sources, const std::string& context) {
  // The readers check each node's shape before use; this is the net under a shape they missed,
  // so that a strange file is an error sentence and never takes the daemon down.
  try {
    return resolve_kubeconfig(sources, context);
  } catch (const YAML::Exception& e) {
    config_result result;
    result.error = "kubeconfig: cannot be read (" + e.msg + ")";
    return result;
  }
}

}  // namespace sextant::kube
