// Over 400 lines because it replays one procedure of KServe's (choosing a Serving Runtime) as one
// pure function, its steps in KServe's order so that it can be read beside KServe's code.
#include "sections/kserve/runtime_choice.hpp"

#include <algorithm>
#include <array>

#include "sections/common/conditions.hpp"
#include "sections/common/lists.hpp"
#include "sections/common/words.hpp"
#include "sections/kserve/inference_service_reading.hpp"
#include "sections/kserve/kserve_section.hpp"

namespace sextant::kserve {
namespace {

constexpr std::string_view namespaced_kind = "ServingRuntime";
constexpr std::string_view cluster_kind = "ClusterServingRuntime";

// KServe's protocol ranks (constants.GetProtocolVersionInt); a runtime listing none ranks as
// Unknown, after them all.
constexpr int unknown_protocol_rank = 5;
// Go's sort.Slice is an insertion sort (stable) for at most 12 items; past that, runtimes of equal
// priority may come in another order than the one replayed here.
constexpr std::size_t stable_sort_limit = 12;

// The old shorthand predictors, which KServe's webhook turns into spec.predictor.model with the
// format of the same name.
constexpr std::array<std::string_view, 10> shorthand_formats = {
    "sklearn", "tensorflow", "xgboost", "pytorch", "triton", "onnx", "huggingface", "pmml", "lightgbm", "paddle"};

// The formats to which KServe's webhook gives protocol v2 when the spec names none, the same in
// v0.16 and v0.20 (pkg/apis/serving/v1beta1/inference_service_defaults.go): the old triton, onnx
// and huggingface shorthands (assignTritonRuntime, assignONNXRuntime, assignHuggingFaceRuntime:
// :291-331 at v0.16.0, :323-363 at v0.20.0), and a spec.predictor.model of format triton
// (setPredictorModelDefaults: :246-252 at v0.16.0, :264-271 at v0.20.0). An object that passed
// the webhook carries the v2; one that did not (a manifest) is read as the webhook will write it.
bool webhook_gives_v2(std::string_view format, bool shorthand) {
  return format == "triton" || (shorthand && (format == "onnx" || format == "huggingface"));
}

// KServe v0.17 and later write this annotation on every Inference Service with a model format
// (setPredictorModelDefaults: inference_service_defaults.go:268-276 at v0.17.0; v0.16.0 has no
// such line). It is how an object tells that a v0.17+ KServe admitted it.
constexpr std::string_view model_format_annotation = "modelFormat";

int protocol_rank(std::string_view protocol) {
  if (protocol == "v1") {
    return 1;
  }
  if (protocol == "v2") {
    return 2;
  }
  if (protocol == "grpc-v1") {
    return 3;
  }
  if (protocol == "grpc-v2") {
    return 4;
  }
  return unknown_protocol_rank;
}

struct model_format {
  std::string name;
  std::optional<std::string> version;
  bool auto_select = false;
  std::optional<std::int64_t> priority;
};

struct runtime_info {
  runtime_ref ref;
  bool cluster = false;
  std::optional<time_point> created;
  bool disabled = false;
  bool multi_model = false;
  bool multi_node = false;
  std::vector<std::string> protocols;
  int rank = unknown_protocol_rank;
  std::vector<model_format> formats;
};

runtime_info read_runtime(const cached_object& runtime, bool cluster) {
  const packed_value& spec = object_or_empty(runtime.body(), {"spec"});
  runtime_info info;
  info.ref = {std::string(cluster ? cluster_kind : namespaced_kind), std::string(runtime.name)};
  info.cluster = cluster;
  info.created = created_at(runtime.body());
  info.disabled = get_bool(spec, {"disabled"}).value_or(false);
  info.multi_model = get_bool(spec, {"multiModel"}).value_or(false);
  const packed_value* workers = find(spec, {"workerSpec"});
  info.multi_node = workers != nullptr && !workers->is_null();
  for (const packed_value& protocol : array_or_empty(spec, {"protocolVersions"})) {
    if (protocol.is_string()) {
      info.protocols.emplace_back(protocol.string_view());
      info.rank = std::min(info.rank, protocol_rank(protocol.string_view()));
    }
  }
  for (const packed_value& format : array_or_empty(spec, {"supportedModelFormats"})) {
    model_format out;
    out.name = string_or(format, {"name"});
    out.version = get_string(format, {"version"});
    out.auto_select = get_bool(format, {"autoSelect"}).value_or(false);
    out.priority = get_int(format, {"priority"});
    info.formats.push_back(std::move(out));
  }
  return info;
}

// What the predictor asks for.
struct model_request {
  bool present = false;
  std::string from;  // spec.predictor.model, or the shorthand it came from
  std::string format;
  std::optional<std::string> version;
  std::optional<std::string> runtime;
  std::optional<std::string> protocol;
  bool protocol_defaulted = false;  // the protocol is the webhook's default, not written in the spec
  bool multi_node = false;
  bool containers = false;     // a custom predictor: its own containers, no runtime
  bool admitted_v017 = false;  // the modelFormat annotation: a KServe v0.17 or later admitted it
};

model_request read_request(const packed_value& service) {
  const packed_value& predictor = object_or_empty(service, {"spec", "predictor"});
  model_request request;
  const packed_value* workers = find(predictor, {"workerSpec"});
  request.multi_node = workers != nullptr && !workers->is_null();
  const packed_value* containers = find(predictor, {"containers"});
  request.containers = containers != nullptr && containers->is_array() && !containers->empty();
  const packed_value* model = find(predictor, {"model"});
  if (model != nullptr && model->is_object()) {
    request.present = true;
    request.from = "spec.predictor.model";
  } else {
    for (std::string_view shorthand : shorthand_formats) {
      const packed_value* old = find(predictor, {shorthand});
      if (old != nullptr && old->is_object()) {
        request.present = true;
        request.from = "spec.predictor." + std::string(shorthand);
        request.format = std::string(shorthand);
        model = old;
        break;
      }
    }
  }
  if (!request.present) {
    return request;
  }
  const bool shorthand = !request.format.empty();
  if (!shorthand) {
    request.format = string_or(*model, {"modelFormat", "name"});
    request.version = get_string(*model, {"modelFormat", "version"});
    request.runtime = get_string(*model, {"runtime"});
  }
  if (std::optional<std::string> protocol = get_string(*model, {"protocolVersion"})) {
    request.protocol = protocol;
  } else if (webhook_gives_v2(request.format, shorthand)) {
    request.protocol = "v2";
    request.protocol_defaulted = true;
  }
  request.admitted_v017 = !string_or(service, {"metadata", "annotations", model_format_annotation}).empty();
  return request;
}

std::string format_words(const model_request& request) {
  return request.version ? request.format + " version " + *request.version : request.format;
}

// Whether the runtime's formats hold the model's, by KServe's labels: "mt:<name>" for every
// counted entry and "mt:<name>:<version>" for one with a version; the model needs its own label.
bool supports_format(const runtime_info& runtime, const model_request& request, bool count_all) {
  return std::any_of(runtime.formats.begin(), runtime.formats.end(), [&](const model_format& format) {
    if (!(count_all || format.auto_select) || format.name != request.format) {
      return false;
    }
    return !request.version || (format.version && *format.version == *request.version);
  });
}

std::string format_rejection(const runtime_info& runtime, const model_request& request) {
  if (supports_format(runtime, request, true)) {
    return "auto-select is off for " + format_words(request);
  }
  return "does not support " + format_words(request);
}

bool supports_protocol(const runtime_info& runtime, const std::string& protocol) {
  return protocol.empty() || runtime.protocols.empty() ||
         std::find(runtime.protocols.begin(), runtime.protocols.end(), protocol) != runtime.protocols.end();
}

std::string protocol_rejection(const runtime_info& runtime, const std::string& protocol, bool defaulted) {
  std::string listed;
  for (const std::string& one : runtime.protocols) {
    listed += (listed.empty() ? "" : ", ") + one;
  }
  return "protocol " + protocol + (defaulted ? " (the default)" : "") + " not supported (it serves " + listed + ")";
}

// The first filter a runtime fails on the auto-select path, in KServe's order, or empty.
std::string auto_select_rejection(const runtime_info& runtime, const model_request& request) {
  if (runtime.disabled) {
    return "disabled";
  }
  if (runtime.multi_model) {
    return "a multi-model runtime (ModelMesh serves those)";
  }
  if (!supports_format(runtime, request, false)) {
    return format_rejection(runtime, request);
  }
  const std::string protocol = request.protocol.value_or("v1");
  if (!supports_protocol(runtime, protocol)) {
    return protocol_rejection(runtime, protocol, !request.protocol || request.protocol_defaulted);
  }
  if (runtime.multi_node != request.multi_node) {
    return runtime.multi_node ? "a multi-node runtime (it has a workerSpec), and the predictor has none"
                              : "not a multi-node runtime, and the predictor has a workerSpec";
  }
  return {};
}

std::optional<std::int64_t> priority_for(const runtime_info& runtime, const std::string& format) {
  // KServe takes the first entry of the format's name, whatever its autoSelect.
  for (const model_format& entry : runtime.formats) {
    if (entry.name == format) {
      return entry.priority;
    }
  }
  return std::nullopt;
}

// KServe's list order before filtering: lowest protocol rank, newest, name.
bool listed_before(const runtime_info& a, const runtime_info& b) {
  if (a.rank != b.rank) {
    return a.rank < b.rank;
  }
  const time_point a_created = a.created.value_or(time_point{});
  const time_point b_created = b.created.value_or(time_point{});
  if (a_created != b_created) {
    return a_created > b_created;
  }
  return a.ref.name < b.ref.name;
}

std::string protocol_name(int rank) {
  static constexpr std::array<std::string_view, 4> names = {"v1", "v2", "grpc-v1", "grpc-v2"};
  return rank >= 1 && rank <= 4 ? std::string(names[static_cast<std::size_t>(rank - 1)]) : "none";
}

// Why `loser` comes after `winner`, by the first key of KServe's order that parts them.
std::string lost_reason(const runtime_info& loser, const runtime_info& winner, const std::string& format) {
  if (loser.cluster && !winner.cluster) {
    return "a namespace runtime always comes first (" + winner.ref.name + ")";
  }
  const std::optional<std::int64_t> mine = priority_for(loser, format);
  const std::optional<std::int64_t> theirs = priority_for(winner, format);
  if (theirs && !mine) {
    return "no priority for " + format + "; " + winner.ref.name + " has priority " + std::to_string(*theirs);
  }
  if (theirs && mine && *mine < *theirs) {
    return "priority " + std::to_string(*mine) + " for " + format + " is below " + winner.ref.name + "'s " +
           std::to_string(*theirs);
  }
  if (loser.rank != winner.rank) {
    return "its lowest protocol (" + protocol_name(loser.rank) + ") ranks after " + winner.ref.name + "'s (" +
           protocol_name(winner.rank) + ")";
  }
  if (loser.created.value_or(time_point{}) != winner.created.value_or(time_point{})) {
    return "older than " + winner.ref.name + " (the newest comes first)";
  }
  return "as old as " + winner.ref.name + ", and its name sorts after";
}

std::vector<runtime_info> read_all(const std::vector<object_ptr>& objects, bool cluster) {
  std::vector<runtime_info> out;
  out.reserve(objects.size());
  for (const object_ptr& object : objects) {
    out.push_back(read_runtime(*object, cluster));
  }
  std::sort(out.begin(), out.end(), listed_before);
  return out;
}

// One group (namespace or cluster) filtered and sorted: survivors in order, the rest rejected.
struct group_result {
  std::vector<runtime_info> survivors;
  std::vector<std::pair<runtime_info, std::string>> rejected;
  bool unstable = false;  // more than KServe sorts stably, with the first two tied on priority
};

group_result select_in(const std::vector<runtime_info>& runtimes, const model_request& request) {
  group_result result;
  for (const runtime_info& runtime : runtimes) {
    std::string rejection = auto_select_rejection(runtime, request);
    if (rejection.empty()) {
      result.survivors.push_back(runtime);
    } else {
      result.rejected.emplace_back(runtime, std::move(rejection));
    }
  }
  auto key = [&request](const runtime_info& runtime) {
    std::optional<std::int64_t> priority = priority_for(runtime, request.format);
    return std::pair<bool, std::int64_t>{priority.has_value(), priority.value_or(0)};
  };
  std::stable_sort(result.survivors.begin(), result.survivors.end(),
                   [&key](const runtime_info& a, const runtime_info& b) { return key(a) > key(b); });
  result.unstable = result.survivors.size() > stable_sort_limit && key(result.survivors[0]) == key(result.survivors[1]);
  return result;
}

std::string ref_words(const runtime_ref& ref) {
  return (ref.kind == cluster_kind ? "Cluster Serving Runtime " : "Serving Runtime ") + ref.name;
}

const runtime_info* named(const std::vector<runtime_info>& runtimes, const std::string& name) {
  auto found = std::find_if(runtimes.begin(), runtimes.end(),
                            [&name](const runtime_info& runtime) { return runtime.ref.name == name; });
  return found == runtimes.end() ? nullptr : &*found;
}

// The protocol KServe's SetRuntimeDefaults gives a runtime named by one of its well-known names
// when the spec names none (SetMlServerDefaults, SetTritonDefaults, SetTorchServeDefaults).
std::optional<std::string> named_runtime_protocol(const std::string& name) {
  if (name == "kserve-mlserver" || name == "kserve-tritonserver") {
    return "v2";
  }
  if (name == "kserve-torchserve") {
    return "v1";
  }
  return std::nullopt;
}

void choose_named(runtime_choice& choice, const model_request& request, const std::vector<runtime_info>& namespaced,
                  const std::vector<runtime_info>& cluster) {
  const std::string& name = *request.runtime;
  const runtime_info* in_namespace = named(namespaced, name);
  const runtime_info* in_cluster = named(cluster, name);
  const runtime_info* runtime = in_namespace != nullptr ? in_namespace : in_cluster;
  if (runtime == nullptr) {
    choice.note = "spec.predictor.model.runtime names " + name +
                  ", which is neither a Serving Runtime of the namespace nor a Cluster Serving Runtime: KServe "
                  "waits (RuntimeNotRecognized: \"Waiting for runtime to become available\").";
    return;
  }
  std::string rejection;
  std::string kserve_says;
  // Before v0.17 KServe gave a well-known name its default protocol before checking the runtime
  // (isvc.SetRuntimeDefaults() first: components/predictor.go:273-300 at v0.16.0); from v0.17 it
  // checks only a protocol the spec names, and applies the default after
  // (components/predictor.go:285-321 at v0.17.0, :331-368 at v0.20.0). Where the two differ, the
  // object must tell which KServe admitted it.
  const std::optional<std::string> well_known = named_runtime_protocol(runtime->ref.name);
  const bool default_unfit =
      !request.protocol && well_known && !supports_protocol(*runtime, *well_known) && !runtime->disabled;
  if (default_unfit && !request.admitted_v017 && supports_format(*runtime, request, true)) {
    choice.told = false;
    choice.note = "cannot be told: KServe before v0.17 gives " + runtime->ref.name + " its default protocol " +
                  *well_known + " before it checks the runtime, which does not serve it, and stops " +
                  "(NoSupportingRuntime: \"Specified runtime does not support specified protocol version\"); v0.17 "
                  "and later check only a protocol the spec names, and use " +
                  ref_words(runtime->ref) +
                  ". The object does not tell which KServe admitted it (v0.17 and later write the modelFormat "
                  "annotation, which it lacks).";
    return;
  }
  // Past that, the versions agree: the default is served, or the runtime is disabled or lacks the
  // format, which both reject (v0.16 may name the protocol first; the rest holds either way).
  const std::optional<std::string>& protocol = request.protocol;
  if (runtime->disabled) {
    rejection = "disabled";
    kserve_says = "RuntimeDisabled: \"Specified runtime is disabled\"";
  } else if (protocol && !supports_protocol(*runtime, *protocol)) {
    rejection = protocol_rejection(*runtime, *protocol, request.protocol_defaulted);
    kserve_says = "NoSupportingRuntime: \"Specified runtime does not support specified protocol version\"";
  } else if (!supports_format(*runtime, request, true)) {
    rejection = "does not support " + format_words(request);
    kserve_says = "NoSupportingRuntime: \"Specified runtime does not support specified framework/version\"";
  }
  if (rejection.empty()) {
    choice.chosen = runtime->ref;
    std::string why = "named in spec.predictor.model.runtime (auto-select does not matter then)";
    if (default_unfit) {
      why += "; the spec names no protocol, so KServe v0.17 and later check none and only then give it " + *well_known +
             " (the default of its name), which it does not list";
    }
    choice.candidates.push_back({runtime->ref, "chosen", why});
  } else {
    choice.candidates.push_back({runtime->ref, "rejected", rejection});
    choice.note = "The runtime named in the spec, " + ref_words(runtime->ref) + ", is " +
                  (rejection == "disabled" ? std::string("disabled") : "unfit (" + rejection + ")") +
                  "; KServe stops (" + kserve_says + ").";
  }
  if (in_namespace != nullptr && in_cluster != nullptr) {
    choice.candidates.push_back({in_cluster->ref, "lost", "a namespace runtime of the same name comes first"});
  }
}

void choose_automatically(runtime_choice& choice, const model_request& request,
                          const std::vector<runtime_info>& namespaced, const std::vector<runtime_info>& cluster) {
  group_result in_namespace = select_in(namespaced, request);
  group_result in_cluster = select_in(cluster, request);
  std::vector<const runtime_info*> order;
  for (const runtime_info& runtime : in_namespace.survivors) {
    order.push_back(&runtime);
  }
  for (const runtime_info& runtime : in_cluster.survivors) {
    order.push_back(&runtime);
  }
  if (!order.empty()) {
    const runtime_info& winner = *order.front();
    choice.chosen = winner.ref;
    std::optional<std::int64_t> priority = priority_for(winner, request.format);
    std::string why = "first by KServe's order";
    if (priority) {
      why += ": priority " + std::to_string(*priority) + " for " + request.format;
    }
    if (order.size() == 1) {
      why = "the only runtime that fits";
    }
    choice.candidates.push_back({winner.ref, "chosen", why});
    for (std::size_t i = 1; i < order.size(); ++i) {
      choice.candidates.push_back({order[i]->ref, "lost", lost_reason(*order[i], winner, request.format)});
    }
    if ((winner.cluster ? in_cluster : in_namespace).unstable) {
      add_sentence(choice.note,
                   "More than 12 runtimes fit with the same priority: KServe's sort is not stable past 12, so it "
                   "may take another of them.");
    }
  } else {
    add_sentence(choice.note, "No runtime fits " + format_words(request) +
                                  ": KServe stops (NoSupportingRuntime: \"No runtime found to support specified "
                                  "framework/version\").");
  }
  for (const auto& [runtime, reason] : in_namespace.rejected) {
    choice.candidates.push_back({runtime.ref, "rejected", reason});
  }
  for (const auto& [runtime, reason] : in_cluster.rejected) {
    choice.candidates.push_back({runtime.ref, "rejected", reason});
  }
}

std::optional<runtime_ref> recorded_runtime(const packed_value& service) {
  const std::string namespaced_name = string_or(service, {"status", "servingRuntimeName"});
  if (!namespaced_name.empty()) {
    return runtime_ref{std::string(namespaced_kind), namespaced_name};
  }
  const std::string cluster_name = string_or(service, {"status", "clusterServingRuntimeName"});
  if (!cluster_name.empty()) {
    return runtime_ref{std::string(cluster_kind), cluster_name};
  }
  return std::nullopt;
}

void compare_with_recorded(runtime_choice& choice, const std::vector<runtime_info>& namespaced, bool named_in_spec) {
  if (!choice.recorded) {
    return;
  }
  const runtime_ref& recorded = *choice.recorded;
  if (!choice.chosen) {
    add_sentence(choice.note, "KServe recorded " + ref_words(recorded) +
                                  " in the status when it last chose; by its rules no runtime fits now.");
    return;
  }
  // KServe records an auto-selected name by looking it up again, the namespace first: a cluster
  // runtime that shares its name with a namespace one is recorded as the namespace one.
  runtime_ref expected = *choice.chosen;
  if (!named_in_spec && expected.kind == cluster_kind && named(namespaced, expected.name) != nullptr) {
    expected.kind = std::string(namespaced_kind);
  }
  if (recorded == *choice.chosen) {
    return;
  }
  if (recorded == expected) {
    add_sentence(choice.note, "KServe recorded it as the namespace's Serving Runtime " + recorded.name +
                                  ": it looks the chosen name up again, the namespace first.");
    return;
  }
  add_sentence(choice.note, "KServe recorded " + ref_words(recorded) + " in the status, but by its rules it chooses " +
                                ref_words(*choice.chosen) +
                                " now: the runtimes changed since it last reconciled this service, or it has not "
                                "reconciled it since.");
}

}  // namespace

runtime_lists runtime_lists_for(const view_context& context, std::string_view namespace_) {
  runtime_lists lists;
  lists.namespaced = context.store.list(serving_runtime_kind, namespace_);
  lists.cluster = context.store.list(cluster_serving_runtime_kind);
  lists.namespaced_incomplete = incomplete_reason(context, serving_runtime_kind);
  lists.cluster_incomplete = incomplete_reason(context, cluster_serving_runtime_kind);
  return lists;
}

runtime_choice choose_runtime(const packed_value& service, const runtime_lists& lists) {
  runtime_choice choice;
  choice.recorded = recorded_runtime(service);
  const model_request request = read_request(service);
  if (read_deployment_mode(service).mode == "ModelMesh") {
    choice.note =
        "In ModelMesh mode ModelMesh places the model on a runtime itself; the daemon does not read its "
        "placement.";
    return choice;
  }
  if (!request.present) {
    choice.note = request.containers ? "The predictor runs its own containers: KServe uses no Serving Runtime."
                                     : "The predictor names no model: there is no runtime to choose.";
    return choice;
  }
  if (request.format.empty()) {
    choice.note = "spec.predictor.model.modelFormat.name is not set: KServe cannot choose a runtime.";
    return choice;
  }
  std::string missing;
  if (!lists.namespaced_incomplete.empty()) {
    missing = "the namespace's Serving Runtimes are " + lists.namespaced_incomplete;
  }
  if (!lists.cluster_incomplete.empty()) {
    missing +=
        (missing.empty() ? "" : " and ") + std::string("the Cluster Serving Runtimes are ") + lists.cluster_incomplete;
  }
  if (!missing.empty()) {
    choice.told = false;
    choice.note = "cannot be told: " + missing + ".";
    return choice;
  }
  const std::vector<runtime_info> namespaced = read_all(lists.namespaced, false);
  const std::vector<runtime_info> cluster = read_all(lists.cluster, true);
  if (request.runtime) {
    choose_named(choice, request, namespaced, cluster);
  } else {
    choose_automatically(choice, request, namespaced, cluster);
  }
  if (request.from != "spec.predictor.model") {
    add_sentence(choice.note, "The model is read from the old " + request.from +
                                  " shorthand, which KServe's webhook turns into spec.predictor.model.");
  }
  if (request.protocol_defaulted) {
    add_sentence(choice.note, "The spec names no protocol: KServe's webhook gives " + request.format +
                                  " protocol v2, so v2 is asked for.");
  }
  if (choice.told) {
    compare_with_recorded(choice, namespaced, request.runtime.has_value());
  }
  return choice;
}

std::string model_format_of(const packed_value& service) {
  return read_request(service).format;
}

json runtime_choice_json(const runtime_choice& choice) {
  auto ref_json = [](const std::optional<runtime_ref>& ref) -> json {
    if (!ref) {
      return nullptr;
    }
    return {{"kind", ref->kind}, {"name", ref->name}};
  };
  json candidates = json::array();
  for (const runtime_candidate& candidate : choice.candidates) {
    candidates.push_back({{"kind", candidate.runtime.kind},
                          {"name", candidate.runtime.name},
                          {"verdict", candidate.verdict},
                          {"reason", candidate.reason}});
  }
  return {{"chosen", ref_json(choice.chosen)},
          {"candidates", std::move(candidates)},
          {"recorded", ref_json(choice.recorded)},
          {"note", or_null(choice.note)}};
}

}  // namespace sextant::kserve
