#pragma once
// Secrets planted in every shape issue 31 names, for the leak battery (unit/masking/
// leak_battery_test.cpp) and the masking fuzz target (fuzz/fuzz_masking.cpp), which share this
// header. Each shape is a text with distinct canaries in secret positions (lib/util/masking/
// README.md): none may survive masking, while the text's harmless parts must.
//
// Canaries are letters and digits only ("Zq" + number + "Vw"), so that no masking rule can read
// one as part of a secret word, and each is distinct, so that a leak names its shape.
#include <functional>
#include <string>
#include <vector>

namespace sextant::testing {

// Where a shape's text goes: a Ray Job's entrypoint, a Ray Service's Serve config, or an
// operator's message (any condition or status message).
enum class shape_carrier { command_line, serve_config, message };

struct planted_shape {
  shape_carrier carrier = shape_carrier::command_line;
  std::string what;  // how the shape was made, for a failure's message
  std::string text;
  std::vector<std::string> canaries;  // none may be shown
  std::vector<std::string> kept;      // each must be shown
};

// Makes distinct canaries.
class canary_maker {
 public:
  explicit canary_maker(std::string prefix = "Zq") : prefix_(std::move(prefix)) {}
  std::string next() { return prefix_ + std::to_string(++count_) + "Vw"; }

 private:
  std::string prefix_;
  int count_ = 0;
};

namespace shapes_detail {

inline std::string replaced(std::string text, const std::string& mark, const std::string& with) {
  for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at + with.size())) {
    text.replace(at, mark.size(), with);
  }
  return text;
}

// `text` as one double-quoted shell word.
inline std::string double_quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\' || c == '$' || c == '`') {
      out += '\\';
    }
    out += c;
  }
  return out + "\"";
}

// A text whose {C} and {D} are the shape's canaries.
struct fragment {
  std::string what;
  std::string text;
};

// Command-line fragments: flags, NAME=value, JSON, Python, URLs, tools' positional secrets.
inline std::vector<fragment> command_fragments() {
  std::vector<fragment> out;
  const std::vector<std::string> flags = {"--api-key",   "--hf-token",      "--token",       "--password",
                                          "--secret",    "--auth-token",    "--access-key",  "--api-keys",
                                          "--api_key2",  "-token",          "--pass_phrase", "--passphrase",
                                          "--HF_TOKEN2", "--client-secret", "--db-pwd",      "--sas-token"};
  const std::vector<std::pair<std::string, std::string>> separators = {
      {"=", "equals"}, {" ", "space"}, {" \\\n    ", "line continuation"}, {"\t", "tab"}};
  const std::vector<std::pair<std::string, std::string>> name_quotes = {
      {"", "bare"}, {"\"", "\"name\""}, {"'", "'name'"}};
  const std::vector<std::pair<std::string, std::string>> values = {{"{C}", "bare"},
                                                                   {"{C},{D}", "with a comma"},
                                                                   {"-{C}", "starting with -"},
                                                                   {"\"{C} and {D}\"", "double-quoted with a space"},
                                                                   {"'{C}'", "single-quoted"},
                                                                   {"{C}}x{D}", "with a brace"}};
  for (const std::string& flag : flags) {
    for (const auto& [separator, separator_words] : separators) {
      for (const auto& [quote, quote_words] : name_quotes) {
        for (const auto& [value, value_words] : values) {
          out.push_back({"flag " + flag + ", " + separator_words + ", " + quote_words + ", value " + value_words,
                         quote + flag + quote + separator + value});
        }
      }
    }
  }
  for (const std::string name : {"HF_TOKEN", "HF_TOKEN2", "API_KEY2", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD",
                                 "PASS_PHRASE", "PASSPHRASE", "KEY1", "token2", "OPENAI_API_KEY", "WANDB_API_KEY"}) {
    for (const std::string prefix : {"", "export ", "env "}) {
      for (const std::string value : {"{C}", "\"{C} {D}\"", "'{C}'", "{C},{D}"}) {
        out.push_back({"NAME=value " + prefix + name + " " + value, prefix + name + "=" + value});
      }
    }
  }
  out.push_back({"JSON in a flag", "--config '{\"api_key\": \"{C}\", \"n\": 3}'"});
  out.push_back({"JSON with escaped quotes", "--config \"{\\\"token\\\": \\\"{C}\\\", \\\"retries\\\": [1, 2]}\""});
  out.push_back({"JSON with a list under a secret key", "--config '{\"credentials\": [\"{C}\", \"{D}\"]}'"});
  out.push_back({"escaped JSON inside bash -c", "bash -c \"echo {\\\"api_key\\\": \\\"{C}\\\"} > /tmp/conf.json\""});
  out.push_back({"runtime env JSON inside bash -c",
                 "bash -c \"ray job submit --runtime-env-json '{\\\"env_vars\\\": {\\\"HF_TOKEN\\\": \\\"{C}\\\"}}' -- "
                 "python job.py\""});
  out.push_back({"os.environ in python -c, single quotes", "python -c \"import os; os.environ['HF_TOKEN']='{C}'\""});
  out.push_back(
      {"os.environ in python -c, double quotes", "python -c 'import os; os.environ[\"API_KEY\"] = \"{C}\"; print(1)'"});
  out.push_back({"os.environ.setdefault", "python -c 'import os; os.environ.setdefault(\"HF_TOKEN\", \"{C}\")'"});
  out.push_back({"login(token=...)", "python -c 'from huggingface_hub import login; login(token=\"{C}\")'"});
  out.push_back({"login(\"...\")", "python -c 'import huggingface_hub; huggingface_hub.login(\"{C}\")'"});
  out.push_back({"wandb.login(key=...)", "python -c \"import wandb; wandb.login(key='{C}')\""});
  out.push_back({"wandb login VALUE", "wandb login {C}"});
  out.push_back({"wandb login --relogin VALUE", "wandb login --relogin {C}"});
  out.push_back({"vault login VALUE", "vault login {C}"});
  out.push_back({"ngrok authtoken VALUE", "ngrok authtoken {C}"});
  out.push_back({"aws configure set", "aws configure set aws_secret_access_key {C}"});
  out.push_back({"huggingface-cli login --token", "huggingface-cli login --token {C}"});
  out.push_back({"docker login -p", "docker login -u me -p {C} registry.example.com"});
  out.push_back({"podman login -pVALUE", "podman login -u me -p{C} quay.example.com"});
  out.push_back({"curl -u user:pass", "curl -u me:{C} https://api.example.com/v1"});
  out.push_back({"sshpass -p", "sshpass -p {C} ssh gpu-node"});
  out.push_back({"redis-cli -a", "redis-cli -a {C} ping"});
  out.push_back({"mysql -pVALUE", "mysql -u root -p{C} models"});
  out.push_back({"Authorization header", "curl -H \"Authorization: Bearer {C}\" https://api.example.com/v1"});
  out.push_back({"API key header", "curl -H 'X-Api-Key: {C}' https://api.example.com/v1"});
  out.push_back({"a bare Bearer", "echo Bearer {C}"});
  for (const std::string special : {"", "^", "|", "{", "}", "\\\\", "`", "<", ">", "\\\"", "'", "/", "@", "#", "?"}) {
    out.push_back({"URL user-info with " + (special.empty() ? std::string("plain characters") : special),
                   "--data \"https://user:p" + special + "{C}@data.example.com/sets/a.tar\""});
  }
  out.push_back({"URL with a signature in the query", "--data https://b.example.com/m.bin?X-Amz-Signature={C}&x=1"});
  out.push_back({"URL with a fragment", "--data https://b.example.com/m.bin#{C}"});
  out.push_back({"user:pass@host without a scheme", "psql admin:{C}@db.internal:5432/app"});
  return out;
}

// Keys that hold secrets in a Serve config, in every spelling the issue names.
inline std::vector<std::string> secret_keys() {
  return {"token",         "hf_token",     "HF_TOKEN2",  "API_KEY2",
          "token2",        "KEY1",         "apiKey",     "api-key",
          "pass_phrase",   "passphrase",   "password",   "client_secret",
          "Authorization", "credentials",  "secret_key", "aws_secret_access_key",
          "X-Api-Key",     "wandb_api_key"};
}

// A Serve config around `application_args` (the lines of an application's args, indented by 4),
// with the harmless parts every config must still show.
inline std::string serve_config(const std::string& application_args) {
  return "applications:\n"
         "- name: llm-app\n"
         "  route_prefix: /llm\n"
         "  import_path: serve_llm:app\n"
         "  deployments:\n"
         "  - {name: LLMServer, num_replicas: 2}\n"
         "  args:\n"
         "    model: meta-llama/Llama-3.1-8B-Instruct\n"
         "    max_tokens: 512\n"
         "    tokenizer: hf-internal/llama-tok\n"
         "    max_model_len: 4096\n" +
         application_args;
}

inline const std::vector<std::string>& serve_config_kept() {
  static const std::vector<std::string> kept = {"llm-app",
                                                "meta-llama/Llama-3.1-8B-Instruct",
                                                "max_tokens: 512",
                                                "hf-internal/llama-tok",
                                                "max_model_len: 4096",
                                                "num_replicas: 2",
                                                "serve_llm:app"};
  return kept;
}

inline std::string indented(const std::string& text, const std::string& indent) {
  std::string out = indent;
  for (char c : text) {
    out += c;
    if (c == '\n') {
      out += indent;
    }
  }
  return out;
}

// Serve-config arguments: keys, environments, argv sequences, JSON in YAML, aliases.
inline std::vector<fragment> serve_config_fragments() {
  std::vector<fragment> out;
  for (const std::string& key : secret_keys()) {
    out.push_back({"block key " + key, "    " + key + ": {C}\n"});
    out.push_back({"quoted key " + key, "    \"" + key + "\": \"{C}\"\n"});
    out.push_back({"flow map key " + key, "    extra: {" + key + ": {C}, retries: 3}\n"});
    out.push_back({"list under " + key, "    " + key + ": [{C}, {D}]\n"});
    out.push_back({"map under " + key, "    " + key + ":\n      user: {C}\n      value: {D}\n"});
    out.push_back({"block scalar under " + key, "    " + key + ": |\n      {C}\n      {D}\n"});
    out.push_back(
        {"anchor under " + key + ", alias elsewhere", "    " + key + ": &anchored {C}\n    again: *anchored\n"});
    out.push_back({"nested list item with " + key, "    items:\n    - name: one\n      " + key + ": {C}\n"});
  }
  out.push_back(
      {"env_vars, block", "    runtime_env:\n      env_vars:\n        HF_TOKEN: {C}\n        MODEL_ID: {D}\n"});
  out.push_back({"env_vars, flow", "    runtime_env: {env_vars: {HF_TOKEN: {C}, OTHER: {D}}}\n"});
  out.push_back({"Kubernetes env list, block",
                 "    env:\n    - name: HF_TOKEN\n      value: {C}\n    - name: MODE\n      value: {D}\n"});
  out.push_back({"Kubernetes env list, flow", "    env: [{name: API_KEY, value: {C}}, {name: X, value: {D}}]\n"});
  out.push_back({"env list of NAME=value", "    environment:\n    - HF_TOKEN={C}\n    - OTHER={D}\n"});
  out.push_back({"headers as name/value pairs", "    headers:\n    - name: Authorization\n      value: Bearer {C}\n"});
  out.push_back({"headers as key/value pairs", "    headers: [{key: X-Api-Key, value: {C}}]\n"});
  out.push_back({"argv, flow", "    argv: [--model, llama, --api-key, {C}]\n"});
  out.push_back({"argv, block", "    argv:\n    - --model\n    - llama\n    - --hf-token\n    - {C}\n"});
  out.push_back({"argv, quoted items", "    argv: [\"--token\", \"{C}\", \"--password={D}\"]\n"});
  out.push_back({"argv, value starting with -", "    argv: [--token, -{C}]\n"});
  out.push_back({"argv with a tool's positional secret", "    command: [wandb, login, {C}]\n"});
  out.push_back({"argv as JSON in a string", "    argv: '[\"--api-key\", \"{C}\"]'\n"});
  out.push_back({"JSON in a string", "    config: '{\"api_key\": \"{C}\", \"n\": 3}'\n"});
  out.push_back(
      {"JSON with env_vars in a string", "    runtime_env_json: \"{\\\"env_vars\\\": {\\\"X\\\": \\\"{C}\\\"}}\"\n"});
  out.push_back({"YAML flow in a string", "    options: \"{token: {C}, n: 1}\"\n"});
  out.push_back(
      {"anchor at a plain key, aliased under a secret key", "    defaults: &shared {C}\n    token: *shared\n"});
  out.push_back(
      {"alias of a map under env_vars", "    base: &base {HF_TOKEN: {C}}\n    runtime_env: {env_vars: *base}\n"});
  out.push_back({"aliases fanning out",
                 "    l0: &l0 [--token, {C}]\n    l1: &l1 [*l0, *l0, *l0, *l0]\n    l2: &l2 [*l1, *l1, *l1, *l1]\n"
                 "    l3: [*l2, *l2, *l2, *l2]\n"});
  out.push_back({"a block scalar command line with continuations",
                 "    cmd: |\n      python serve.py \\\n        --api-key {C} \\\n        --port 8000\n"});
  out.push_back({"a block scalar holding YAML", "    config_text: |\n      token:\n        {C}\n      other: 1\n"});
  for (const fragment& command : command_fragments()) {
    // Every command-line shape also stands as a value of a Serve config, quoted as YAML needs.
    std::string quoted = "'" + replaced(command.text, "'", "''") + "'";
    out.push_back(
        {"command line in a value: " + command.what, "    cmd: " + replaced(quoted, "\n", "\n\n      ") + "\n"});
  }
  return out;
}

// Operator messages: what a controller writes, quoting URLs, log lines and commands.
inline std::vector<fragment> message_fragments() {
  std::vector<fragment> out;
  for (const std::string special : {"", "^", "|", "{", "}", "\\", "`", "<", ">", "\"", "'", "/", "@", "#", "?"}) {
    out.push_back({"message with a URL whose password holds " + (special.empty() ? std::string("letters") : special),
                   "failed to fetch https://user:p" + special + "{C}@storage.example.com/models/m: 403 Forbidden"});
    out.push_back({"message with a quoted URL whose password holds " + special,
                   "could not read \"s3://AKIAX:k" + special + "{C}@bucket/models\" (exit code 1)"});
  }
  out.push_back(
      {"message with a signed URL", "GET https://b.example.com/m.bin?X-Amz-Signature={C}&X-Amz-Date=1 failed"});
  out.push_back({"message with user:pass@host", "connect admin:{C}@db.internal:5432 refused"});
  out.push_back({"message quoting env lines", "last lines:\nHF_TOKEN={C}\npassword: {D}\nexit code 1"});
  out.push_back({"message quoting a command", "command failed: python train.py --api-key {C} --epochs 3"});
  out.push_back({"message quoting quoted flags", "argv was [\"--hf-token\", \"{C}\"]"});
  out.push_back({"message quoting JSON", "config {\"api_key\": \"{C}\", \"n\": 3} rejected"});
  out.push_back({"message quoting Python", "Traceback: os.environ['HF_TOKEN'] = '{C}'"});
  out.push_back({"message with an unclosed quote", "bad value for token: \"{C} and then the line ended"});
  out.push_back({"message quoting a header", "401 with Authorization: Bearer {C}"});
  return out;
}

// The fragments of `carrier` made into planted shapes, their {C} and {D} made canaries.
inline std::vector<planted_shape> shapes_of(shape_carrier carrier, canary_maker& canaries) {
  std::vector<planted_shape> out;
  auto plant = [&](const fragment& f, const std::function<std::string(const std::string&)>& around,
                   std::vector<std::string> kept, const std::string& how) {
    planted_shape shape;
    shape.carrier = carrier;
    shape.what = how + f.what;
    std::string text = f.text;
    for (const char* mark : {"{C}", "{D}"}) {
      if (text.find(mark) != std::string::npos) {
        std::string canary = canaries.next();
        shape.canaries.push_back(canary);
        text = replaced(text, mark, canary);
      }
    }
    shape.text = around(text);
    shape.kept = std::move(kept);
    out.push_back(std::move(shape));
  };
  if (carrier == shape_carrier::command_line) {
    const std::vector<std::string> kept = {"python serve.py",
                                           "meta-llama/Llama-3.1-8B-Instruct",
                                           "--max-tokens 512",
                                           "--tokenizer hf-internal/llama-tok",
                                           "--token-file /var/run/hf/token",
                                           "echo done"};
    auto around = [](const std::string& text) {
      return "python serve.py --model meta-llama/Llama-3.1-8B-Instruct --max-tokens 512 --tokenizer "
             "hf-internal/llama-tok --token-file /var/run/hf/token && " +
             text + " && echo done";
    };
    for (const fragment& f : command_fragments()) {
      plant(f, around, kept, "");
      // The same inside bash -c "…" and sh -c '…' (when it holds no single quote).
      plant(
          f, [&](const std::string& text) { return around("bash -c " + double_quoted(text)); }, kept, "bash -c: ");
      if (f.text.find('\'') == std::string::npos) {
        plant(
            f, [&](const std::string& text) { return around("sh -c '" + text + "'"); }, kept, "sh -c: ");
      }
    }
  } else if (carrier == shape_carrier::serve_config) {
    for (const fragment& f : serve_config_fragments()) {
      plant(f, serve_config, serve_config_kept(), "");
    }
  } else {
    for (const fragment& f : message_fragments()) {
      plant(
          f, [](const std::string& text) { return "Job failed (exit code 1): " + text; }, {"Job failed (exit code 1)"},
          "");
    }
  }
  return out;
}

}  // namespace shapes_detail

// Every shape for `carrier`, with canaries from `canaries`.
inline std::vector<planted_shape> planted_shapes(shape_carrier carrier, canary_maker& canaries) {
  return shapes_detail::shapes_of(carrier, canaries);
}

}  // namespace sextant::testing
