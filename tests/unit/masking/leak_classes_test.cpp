// The six leak classes of issue 31 and the shapes beside them, one test case each, at the masking
// module's entry points. Each failed on the masker before the secret-position model
// (lib/util/masking/README.md); the leak battery (leak_battery_test.cpp) checks every shape
// again through every route of the daemon.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <vector>

#include "util/masking/secrets.hpp"
#include "util/masking/uris.hpp"

using namespace sextant::masking;

namespace {

// The text a masker shows, or nullopt when it shows none.
template <typename T>
std::optional<std::string> shown(const T& result) {
  if constexpr (requires { result.text; }) {
    return result.text;
  } else {
    return result;
  }
}

struct shape {
  const char* what;
  std::string input;
  std::vector<std::string> secrets;  // none may appear
  std::vector<std::string> kept;     // each must appear
};

void check_shown(const std::optional<std::string>& output, const shape& s) {
  INFO(s.what << "\ninput:  " << s.input << "\noutput: " << output.value_or("(not shown)"));
  REQUIRE(output.has_value());
  for (const std::string& secret : s.secrets) {
    CHECK(output->find(secret) == std::string::npos);
  }
  for (const std::string& kept : s.kept) {
    CHECK(output->find(kept) != std::string::npos);
  }
}

void command_lines(const std::vector<shape>& shapes) {
  for (const shape& s : shapes) {
    check_shown(shown(mask_command_line(s.input)), s);
  }
}

void serve_configs(const std::vector<shape>& shapes) {
  for (const shape& s : shapes) {
    check_shown(shown(mask_yaml(s.input)), s);
  }
}

void messages(const std::vector<shape>& shapes) {
  for (const shape& s : shapes) {
    check_shown(operator_text(s.input), s);
  }
}

}  // namespace

TEST_CASE("class 1: a flag value with a comma is hidden whole", "[masking][leak-classes]") {
  command_lines({
      {"--flag=a,b", "python serve.py --api-keys=sk-A111,sk-B222 --port 8000", {"sk-A111", "sk-B222"}, {"--port 8000"}},
      {"--flag a,b", "python serve.py --api-keys sk-A111,sk-B222 --port 8000", {"sk-A111", "sk-B222"}, {"--port 8000"}},
      {"NAME=a,b", "HF_TOKEN=hf_A111,hf_B222 python run.py", {"hf_A111", "hf_B222"}, {"python run.py"}},
      {"--flag=a,b,c in a quoted command",
       "bash -c \"serve --api-keys=k1A,k2B,k3C && echo ok\"",
       {"k1A", "k2B", "k3C"},
       {"echo ok"}},
  });
  serve_configs({
      {"a command line inside a Serve config",
       "args:\n  cmd: python x.py --api-keys=sk-A111,sk-B222 --port 8000\n",
       {"sk-A111", "sk-B222"},
       {"8000"}},
  });
}

TEST_CASE("class 2: quoted flag names hide their values", "[masking][leak-classes]") {
  command_lines({
      {"double-quoted flag and value", "python x.py \"--hf-token\" \"hf_Q2a\" --epochs 3", {"hf_Q2a"}, {"--epochs 3"}},
      {"single-quoted flag and value", "python x.py '--api-key' 'sk-Q2b' --epochs 3", {"sk-Q2b"}, {"--epochs 3"}},
      {"quoted flag, bare value", "python x.py \"--hf-token\" hf_Q2c", {"hf_Q2c"}, {}},
      {"flag quoted with its =value", "python x.py \"--token=tQ2d\"", {"tQ2d"}, {}},
  });
  serve_configs({
      {"in a Serve config string", "args:\n  cmd: 'serve \"--hf-token\" \"hf_Q2e\"'\n", {"hf_Q2e"}, {"serve"}},
  });
}

TEST_CASE("class 3: a YAML sequence is read as an argv", "[masking][leak-classes]") {
  serve_configs({
      {"flow sequence", "args: [--model, llama, --api-key, sk-Y3a]\n", {"sk-Y3a"}, {"llama", "--api-key"}},
      {"block sequence", "args:\n  - --model\n  - llama\n  - --hf-token\n  - hf_Y3b\n", {"hf_Y3b"}, {"llama"}},
      {"quoted items", "args: [\"--token\", \"tY3c\"]\n", {"tY3c"}, {}},
      {"a JSON argv inside a string", "args:\n  argv: '[\"--api-key\", \"sk-Y3d\"]'\n", {"sk-Y3d"}, {}},
      {"an argv of a container command",
       "command:\n- python\n- serve.py\n- --password\n- pY3e\n",
       {"pY3e"},
       {"serve.py"}},
  });
}

TEST_CASE("class 4: secret words with a digit or a suffix glued on", "[masking][leak-classes]") {
  for (const char* key : {"HF_TOKEN2", "API_KEY2", "token2", "KEY1", "hfToken2", "secret_key_2", "PASSWORD1"}) {
    INFO(key);
    CHECK(secret_looking_key(key));
  }
  serve_configs({
      {"keys in a Serve config",
       "HF_TOKEN2: h4a\nAPI_KEY2: h4b\ntoken2: h4c\nKEY1: h4d\nname: app\n",
       {"h4a", "h4b", "h4c", "h4d"},
       {"app"}},
  });
  command_lines({
      {"NAME=value", "HF_TOKEN2=h4e API_KEY2=h4f python run.py", {"h4e", "h4f"}, {"python run.py"}},
      {"flags", "run --api-key2 h4g --token2=h4h --epochs 3", {"h4g", "h4h"}, {"--epochs 3"}},
  });
}

TEST_CASE("class 5: URL user-info with characters RFC 3986 forbids unencoded", "[masking][leak-classes]") {
  // Each password holds one character that ended the URI before; the part after it came out.
  const std::vector<std::string> passwords = {"p^w5a", "p|w5b", "p{w5c", "p}w5d", "p\\w5e",
                                              "p`w5f", "p<w5g", "p>w5h", "p\"w5i"};
  for (const std::string& password : passwords) {
    const std::string uri = "https://user:" + password + "@host.example/models/m";
    const std::string tail = password.substr(2);  // what leaked: after the forbidden character
    messages({{"an operator message", "failed to fetch " + uri + ": 403", {tail, "user:"}, {"host.example/models/m"}}});
    command_lines({{"an entrypoint", "python x.py --data " + uri + " --epochs 3", {tail}, {"--epochs 3"}}});
    stripped text = strip_uris_in_text("see " + uri + " now");
    INFO(text.text);
    CHECK(text.text.find(tail) == std::string::npos);
    CHECK(text.removed);
  }
  serve_configs({{"a Serve config value",
                  "args:\n  store: 'https://u:p^a|s{s}w5j@bucket.example/x'\n",
                  {"s}w5j", "w5j"},
                  {"bucket.example/x"}}});
}

TEST_CASE("class 6: a Serve config whose aliases fan out is not walked exponentially", "[masking][leak-classes]") {
  // Each level aliases the previous one ten times: 10^9 nodes once expanded, 900 bytes written.
  // The masker before walked every expansion (8 levels took 241 s; 9 run past ctest's timeout).
  // Each node is masked once now, and the aliases are written back as aliases.
  std::string yaml = "a0: &a0 [name, --token, s6sec]\n";
  for (int level = 1; level <= 9; ++level) {
    const std::string previous = "*a" + std::to_string(level - 1);
    yaml += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " [";
    for (int i = 0; i < 10; ++i) {
      yaml += (i == 0 ? "" : ", ") + previous;
    }
    yaml += "]\n";
  }
  REQUIRE(yaml.size() < 1000);
  std::optional<std::string> masked = shown(mask_yaml(yaml));
  REQUIRE(masked.has_value());
  CHECK(masked->find("s6sec") == std::string::npos);
  CHECK(masked->find("--token") != std::string::npos);
  CHECK(masked->find("*a8") != std::string::npos);
  CHECK(masked->size() < 2 * yaml.size());
  // A few aliases of a small anchor are read as usual.
  std::optional<std::string> small =
      shown(mask_yaml("base: &b {num_replicas: 2, token: s6a}\napps:\n- *b\n- *b\n- *b\n"));
  REQUIRE(small.has_value());
  CHECK(small->find("s6a") == std::string::npos);
  CHECK(small->find("num_replicas") != std::string::npos);
}

TEST_CASE("shapes beyond the spec's three forms are hidden too", "[masking][leak-classes]") {
  command_lines({
      {"os.environ in python -c",
       "python -c \"import os; os.environ['HF_TOKEN']='hf_E1a'; os.environ[\\\"API_KEY\\\"] = \\\"sk_E1b\\\"; run()\"",
       {"hf_E1a", "sk_E1b"},
       {"import os", "run()"}},
      {"os.environ.setdefault",
       "python -c 'import os; os.environ.setdefault(\"HF_TOKEN\", \"hf_E1c\")'",
       {"hf_E1c"},
       {}},
      {"escaped JSON inside bash -c",
       "bash -c \"ray job submit --runtime-env-json '{\\\"env_vars\\\": {\\\"HF_TOKEN\\\": \\\"hf_E2a\\\"}}' -- "
       "python x.py\"",
       {"hf_E2a"},
       {"python x.py"}},
      {"escaped JSON with a secret key inside bash -c",
       "bash -c \"echo {\\\"api_key\\\": \\\"sk_E2b\\\"} > /tmp/c\"",
       {"sk_E2b"},
       {"/tmp/c"}},
      {"user:pass@host without a scheme",
       "psql admin:pw_E3a@db.internal:5432/app",
       {"pw_E3a", "admin"},
       {"db.internal:5432/app"}},
      {"a secret flag whose value starts with -", "run --token -tE4a --epochs 3", {"-tE4a", "tE4a"}, {"--epochs 3"}},
      {"pass_phrase and passphrase",
       "run --pass_phrase ppE5a PASSPHRASE=ppE5b --key-passphrase=ppE5c",
       {"ppE5a", "ppE5b", "ppE5c"},
       {}},
      {"wandb login VALUE", "wandb login wbE6a && python train.py", {"wbE6a"}, {"python train.py"}},
      {"aws configure set",
       "aws configure set aws_secret_access_key awsE6b && aws configure set region us-east-1",
       {"awsE6b"},
       {"us-east-1"}},
      {"huggingface-cli login --token",
       "huggingface-cli login --token hfE6c && python serve.py",
       {"hfE6c"},
       {"python serve.py"}},
      {"docker login -p", "docker login -u me -p dkE6d registry.example.com", {"dkE6d"}, {"registry.example.com"}},
      {"curl -u user:pass", "curl -u me:cuE6e https://api.example.com/x", {"cuE6e"}, {"api.example.com/x"}},
      {"huggingface_hub.login(\"...\")",
       "python -c 'from huggingface_hub import login; login(\"hfE6f\")'",
       {"hfE6f"},
       {"huggingface_hub"}},
  });
  serve_configs({
      {"Kubernetes env lists, block",
       "env:\n- name: HF_TOKEN\n  value: hf_E7a\n- name: MODEL\n  value: llama\n",
       {"hf_E7a"},
       {"HF_TOKEN", "MODEL"}},
      {"Kubernetes env lists, flow", "env: [{name: API_KEY, value: sk_E7b}]\n", {"sk_E7b"}, {"API_KEY"}},
      {"headers as name/value pairs",
       "headers:\n- name: Authorization\n  value: Bearer beE7c\n",
       {"beE7c"},
       {"Authorization"}},
      {"pass_phrase and passphrase keys",
       "pass_phrase: ppE8a\npassphrase: ppE8b\nname: app\n",
       {"ppE8a", "ppE8b"},
       {"app"}},
  });
}

TEST_CASE("the spec's exceptions and harmless values stay visible", "[masking][leak-classes]") {
  for (const char* key : {"max_tokens", "tokenizer", "max_model_len", "num_tokens", "tokenizer_mode", "MAX_TOKENS"}) {
    INFO(key);
    CHECK_FALSE(secret_looking_key(key));
  }
  command_lines({
      {"--token-file with a path",
       "serve --token-file /var/run/secrets/token --max-tokens 512",
       {},
       {"/var/run/secrets/token", "512"}},
      {"--token-file with a value that is no path", "serve --token-file tfE9a", {"tfE9a"}, {}},
      {"max_model_len and tokenizer",
       "vllm serve llama --max-model-len 8192 --tokenizer hf-internal/tok",
       {},
       {"8192", "hf-internal/tok", "llama"}},
  });
  serve_configs({
      {"exceptions in a Serve config",
       "args:\n  max_tokens: 512\n  tokenizer: llama-tok\n  max_model_len: 4096\n  token_file: /run/tok\n",
       {},
       {"512", "llama-tok", "4096", "/run/tok"}},
  });
}
