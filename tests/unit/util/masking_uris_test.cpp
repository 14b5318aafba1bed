#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "util/masking/uris.hpp"

using sextant::masking::strip_uri;
using sextant::masking::strip_uris_in_text;

namespace {

struct uri_case {
  std::string input;
  std::string shown;
  bool removed;
};

}  // namespace

TEST_CASE("URIs lose user info, password, query and fragment, and say so", "[masking]") {
  const std::vector<uri_case> cases = {
      {"s3://models/sklearn/iris", "s3://models/sklearn/iris", false},
      {"s3://AKIAEXAMPLE:wJalrSecret@models/iris", "s3://models/iris", true},
      {"gs://kfserving-examples/models/sklearn/1.0/model", "gs://kfserving-examples/models/sklearn/1.0/model", false},
      {"gs://bucket/model?generation=1712", "gs://bucket/model", true},
      {"https://user:hunter2@example.com/model.tar.gz", "https://example.com/model.tar.gz", true},
      {"https://user@example.com/m", "https://example.com/m", true},
      {"https://bucket.s3.amazonaws.com/m.bin?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260101"
       "&X-Amz-Signature=deadbeefcafe",
       "https://bucket.s3.amazonaws.com/m.bin", true},
      {"https://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=0a1b2c3d",
       "https://storage.googleapis.com/b/o", true},
      {"https://acct.blob.core.windows.net/models/m.onnx?sv=2022-11-02&se=2026-12-01&sr=b&sp=r&sig=abc%2Bdef%3D",
       "https://acct.blob.core.windows.net/models/m.onnx", true},
      {"hf://meta-llama/Llama-3.1-8B-Instruct", "hf://meta-llama/Llama-3.1-8B-Instruct", false},
      {"hf://org/model:v2", "hf://org/model:v2", false},
      {"pvc://model-store/llama/7b", "pvc://model-store/llama/7b", false},
      {"oci://ghcr.io/org/models/iris:1.0", "oci://ghcr.io/org/models/iris:1.0", false},
      {"oci://ghcr.io/org/model@sha256:0123abcd", "oci://ghcr.io/org/model@sha256:0123abcd", false},
      {"oci://robot%24ci:tok3n@registry.example:5000/m:1", "oci://registry.example:5000/m:1", true},
      {"http://[::1]:8080/v1/models/iris", "http://[::1]:8080/v1/models/iris", false},
      {"http://admin:pw@[fe80::1%25eth0]:80/x", "http://[fe80::1%25eth0]:80/x", true},
      {"https://user%40corp.example:p%40ss%3Aword@minio.local:9000/b", "https://minio.local:9000/b", true},
      {"https://user:p@ss@host/m", "https://host/m", true},
      {"https://user:pa/ss@host/m", "https://host/m", true},
      {"https://user:secret/m", "https://user/m", true},
      {"http://iris.default.example.com", "http://iris.default.example.com", false},
      {"http://iris-predictor.default.svc.cluster.local:8080#frag",
       "http://iris-predictor.default.svc.cluster.local:8080", true},
      {"https://proxy/fetch//u:p@inner/x", "https://proxy/fetch//inner/x", true},
      {"https://a/https://u:p@b/c", "https://a/https://b/c", true},
      {"user:pw@host/path", "host/path", true},
      {"", "", false},
      {"://", "://", false},
      {"https://host/p?", "https://host/p", true},
  };
  for (const auto& c : cases) {
    INFO(c.input);
    auto result = strip_uri(c.input);
    CHECK(result.text == c.shown);
    CHECK(result.removed == c.removed);
  }
}

TEST_CASE("URIs inside sentences are stripped and the sentence stays", "[masking]") {
  const std::vector<uri_case> cases = {
      {"failed to download s3://AKIA:wJalr@bucket/model: access denied",
       "failed to download s3://bucket/model: access denied", true},
      {"GET https://b.s3.amazonaws.com/k?X-Amz-Signature=abc123. Retrying.",
       "GET https://b.s3.amazonaws.com/k. Retrying.", true},
      {"(see https://user:pw@host/path)", "(see https://host/path)", true},
      {"url \"https://u:p@h/x?sig=1\" was refused", "url \"https://h/x\" was refused", true},
      {"two: gs://a/b?x=1 and https://c/d#e", "two: gs://a/b and https://c/d", true},
      {"no uri at all, only words", "no uri at all, only words", false},
      {"Model storage is pvc://claim/path, ready", "Model storage is pvc://claim/path, ready", false},
      {"at\thttps://u:p@h\nnext", "at\thttps://h\nnext", true},
      {"trailing https://u:pw@", "trailing https://", true},
      {"bare ://u:p@h here", "bare ://h here", true},
  };
  for (const auto& c : cases) {
    INFO(c.input);
    auto result = strip_uris_in_text(c.input);
    CHECK(result.text == c.shown);
    CHECK(result.removed == c.removed);
  }
  CHECK(sextant::masking::removed_note == "credentials and query hidden");
}
