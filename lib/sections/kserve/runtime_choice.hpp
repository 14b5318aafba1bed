#pragma once
// Which Serving Runtime KServe uses for an Inference Service's model, and why: KServe's own
// selection (v0.16: the predictor's reconcileModel and ModelSpec.GetSupportingRuntimes) replayed
// as a pure function over the cached runtimes.
//
// A runtime named in spec.predictor.model.runtime is looked up in the namespace, then the
// cluster, and must be enabled and support the model's protocol and format (auto-select does not
// matter then). Before v0.17 the protocol checked is the default of a well-known runtime name
// (kserve-mlserver, kserve-tritonserver: v2; kserve-torchserve: v1) when the spec names none;
// from v0.17 only a protocol the spec names is checked. The object tells which KServe admitted it
// by the modelFormat annotation v0.17+ writes; without it, where the two differ, the answer is
// "cannot be told". Otherwise every runtime of the namespace, then of the cluster, is filtered:
// enabled, not multi-model, the model's format (and version, when given) among the formats with
// autoSelect true, the protocol (when unset: v2 for triton and the old onnx and huggingface
// shorthands, as KServe's webhook writes it, else v1; a runtime listing none takes any),
// multi-node exactly when the predictor has a workerSpec. Within each group the survivors are in KServe's
// order: the format's priority, highest first (a runtime with one before those without); then
// the lowest protocol a runtime lists (v1, v2, grpc-v1, grpc-v2; none listed last); then newest;
// then by name. Namespace runtimes always come before cluster ones. The first wins.
// When either list is not read in full, the answer is "cannot be told".
#include <optional>
#include <string>
#include <vector>

#include "sections/section.hpp"

namespace sextant::kserve {

struct runtime_ref {
  std::string kind;  // ServingRuntime or ClusterServingRuntime
  std::string name;
  bool operator==(const runtime_ref&) const = default;
};

struct runtime_candidate {
  runtime_ref runtime;
  std::string verdict;  // chosen, lost, rejected
  std::string reason;   // in words: "auto-select is off for sklearn", "disabled", ...
};

struct runtime_choice {
  bool told = true;  // false: a list is not read in full, and the answer is "cannot be told"
  std::optional<runtime_ref> chosen;
  std::vector<runtime_candidate> candidates;  // the chosen first, then the losers in order, then the rejected
  std::optional<runtime_ref> recorded;        // status.servingRuntimeName / clusterServingRuntimeName
  std::string note;                           // why none, why not told, or how the status differs
};

// The runtimes KServe would look at, and whether each list is whole.
struct runtime_lists {
  std::vector<object_ptr> namespaced;  // the Inference Service's namespace's Serving Runtimes
  std::vector<object_ptr> cluster;     // Cluster Serving Runtimes
  std::string namespaced_incomplete;   // why the list may lack some ("" when whole)
  std::string cluster_incomplete;
};
runtime_lists runtime_lists_for(const view_context& context, std::string_view namespace_);

runtime_choice choose_runtime(const packed_value& service, const runtime_lists& lists);

json runtime_choice_json(const runtime_choice& choice);

// The model format the predictor asks for (spec.predictor.model.modelFormat.name, or the old
// shorthand's key), or empty.
std::string model_format_of(const packed_value& service);

}  // namespace sextant::kserve
