#pragma once
// Section 1 of the model (README.md): which names hold secrets.
#include <string_view>

namespace sextant::masking {

// A key, flag or variable name whose value is a secret: token, key, auth, secret, password,
// passphrase, credential, API or access key, in any case and spelling (apiKey, X-Auth-Token,
// AWS_SECRET_ACCESS_KEY), with digits glued on (HF_TOKEN2, KEY1). Not max_tokens, tokenizer or
// max_model_len: counts and tools named after tokens are not secrets.
bool secret_looking_key(std::string_view name);

// Whether a secret-looking name's value is shown after all: the name says it holds a path
// (token_file, --token-path, KEY_DIR) and the value is one (/run/token, ./key, ~/x).
bool shown_path_value(std::string_view name, std::string_view value);

// A key whose whole value is an environment: env_vars (Ray's runtime_env), env, envVars,
// environment.
bool environment_key(std::string_view key);

// Whether a text may hold anything the maskers hide: "://" or '@' (URIs, user info), or a stem
// of a secret word or of a tool with positional secrets (tok, key, sec, pass, pwd, auth, cred,
// bear, cook, sig, jwt, login, curl, redis, sql), in any case. A text without any holds no
// secret position: the maskers return it as it is. Linear, without allocating.
bool may_hold_secrets(std::string_view text);

// Bearer, Basic, Token, Digest: an Authorization value's scheme, followed by the secret itself.
bool auth_scheme_word(std::string_view word);

}  // namespace sextant::masking
