// Over 400 lines because most of it is one table: a pattern for each reason kube-scheduler's
// DynamicResources plugin writes, kept in one list so that it can be read beside the plugin.
#include "sections/dra/scheduler_reasons.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <memory>

#include <re2/re2.h>

#include "util/go_quoted.hpp"

namespace sextant::dra {
namespace {

// The scheduler writes the whole error into the condition; a message this long is either a
// histogram of thousands of nodes or hostile. Only its head is read (RE2 is linear in it, but
// every reason found is rendered).
constexpr std::size_t longest_message_read = 64 * 1024;

// A name as the scheduler prints it may end a sentence: drop the punctuation that follows.
std::string trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == '.' || text.back() == ',' || text.back() == ';')) {
    text.remove_suffix(1);
  }
  return std::string(text);
}

// "ns/name" -> "name".
std::string name_part(std::string_view qualified) {
  auto slash = qualified.rfind('/');
  return trimmed(slash == std::string_view::npos ? qualified : qualified.substr(slash + 1));
}

// Histogram reasons say how many nodes gave them; the text names "N of M nodes" once the
// total is known, through this placeholder.
constexpr std::string_view nodes_placeholder = "{on-nodes}";

std::string on_nodes(const std::optional<std::int64_t>& nodes, const std::optional<std::int64_t>& total) {
  if (!nodes) {
    return "";
  }
  std::string count = std::to_string(*nodes);
  if (total) {
    return " on " + count + " of " + std::to_string(*total) + (*total == 1 ? " node" : " nodes");
  }
  return " on " + count + (*nodes == 1 ? " node" : " nodes");
}

// Digits as a number; nullopt when absent or too large (no exception escapes a reader).
std::optional<std::int64_t> count_of(std::optional<std::string_view> digits) {
  if (!digits) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(digits->data(), digits->data() + digits->size(), value);
  if (error != std::errc() || end != digits->data() + digits->size()) {
    return std::nullopt;
  }
  return value;
}

// One match's groups: 0 is the whole fragment.
class groups {
 public:
  explicit groups(const std::vector<re2::StringPiece>& pieces) : pieces_(pieces) {}
  bool has(std::size_t i) const { return i < pieces_.size() && pieces_[i].data() != nullptr; }
  std::optional<std::string_view> maybe(std::size_t i) const {
    return has(i) ? std::optional<std::string_view>(std::string_view(pieces_[i])) : std::nullopt;
  }
  std::string operator[](std::size_t i) const { return has(i) ? std::string(std::string_view(pieces_[i])) : ""; }

 private:
  const std::vector<re2::StringPiece>& pieces_;
};

using filler = std::function<void(const groups&, dra_reason&)>;

struct pattern {
  std::string_view needle;  // a literal the text must contain before the expression is tried
  std::unique_ptr<re2::RE2> expression;
  filler fill;
};

// Go's %q of a name, or a bare name: the name.
constexpr const char* quoted_name = R"re("((?:[^"\\]|\\.)*)")re";

std::vector<pattern> build_patterns() {
  std::vector<pattern> p;
  auto add = [&p](std::string_view needle, const std::string& expression, filler fill) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    p.push_back(pattern{needle, std::make_unique<re2::RE2>(expression, options), std::move(fill)});
  };
  // A reason given for some nodes of the "0/N nodes are available" histogram: "3 <text>".
  auto add_per_node = [&add](std::string_view text, const std::string& expression, std::string id,
                             std::string sentence) {
    add(text, "(?:(\\d+) )?" + expression, [id, sentence](const groups& m, dra_reason& r) {
      r.id = id;
      r.nodes = count_of(m.maybe(1));
      r.text = sentence;
    });
  };
  // A text the scheduler writes as it is, with nothing to read from it.
  auto add_literal = [&add](std::string_view text, std::string id, std::string sentence) {
    add(text, re2::RE2::QuoteMeta(re2::StringPiece(text.data(), text.size())),
        [id, sentence](const groups&, dra_reason& r) {
          r.id = id;
          r.text = sentence;
        });
  };
  const std::string on = std::string(nodes_placeholder);

  // k8s.io/dynamic-resource-allocation resourceclaim/resourceclaim.go: how a pod's claims are
  // found and checked (PreEnqueue, PreFilter).
  add("ResourceClaim not created yet", R"re(pod "[^"]+": ResourceClaim not created yet)re",
      [](const groups&, dra_reason& r) {
        r.id = "claim-not-created";
        r.text = "A claim of the pod is not created yet from its template.";
      });
  add("ResourceClaim not created yet", R"re(PodGroup (\S+): ResourceClaim not created yet)re",
      [](const groups& m, dra_reason& r) {
        r.id = "podgroup-claim-not-created";
        r.text = "A claim of PodGroup " + m[1] + " is not created yet from its template.";
      });
  add("none of the supported fields are set",
      std::string(R"re(pod "[^"]+", spec\.resourceClaim )re") + quoted_name + ": none of the supported fields are set",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-source-missing";
        r.text = "Pod claim " + go_unquoted(m[1]) + " names neither a claim nor a template.";
      });
  add("none of the supported fields are set", R"re(Pod \S+ claim (\S+): none of the supported fields are set)re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-source-missing";
        r.text = "Pod claim " + m[1] + " names neither a claim nor a template.";
      });
  add("none of the supported fields are set",
      R"re(PodGroup ([^\s,]+),? (?:spec\.resourceClaim|claim) (\S+): none of the supported fields are set)re",
      [](const groups& m, dra_reason& r) {
        r.id = "podgroup-claim-source-missing";
        r.text = "Claim " + m[2] + " of PodGroup " + m[1] + " names neither a claim nor a template.";
      });
  // The lister's form (kube-scheduler before 1.34) and the claim tracker's (1.34 on).
  add("not found", R"re(resourceclaims?(?:\.resource\.k8s\.io)? "([^"]+)" not found)re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-not-found";
        r.claim = name_part(m[1]);
        r.text = "Claim " + r.claim + " does not exist.";
      });
  add("could not find ResourceClaim", R"re(could not find ResourceClaim "([^"]+)")re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-not-found";
        r.claim = name_part(m[1]);
        r.text = "Claim " + r.claim + " does not exist.";
      });
  add("is being deleted", std::string("resourceclaim ") + quoted_name + " is being deleted",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-deleting";
        r.claim = go_unquoted(m[1]);
        r.text = "Claim " + r.claim + " is being deleted.";
      });
  add("was not created for", R"re(ResourceClaim (\S+) was not created for (Pod|PodGroup) (\S+) \(([^)]*)\))re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-not-owned";
        r.claim = name_part(m[1]);
        r.text = m[2] == "Pod" ? "Claim " + r.claim + " was not created for this pod: " + m[4] + "."
                               : "Claim " + r.claim + " was not created for PodGroup " + m[3] + ": " + m[4] + ".";
      });
  add("is not in the same namespace", R"re(ResourceClaim (\S+) is not in the same namespace as (Pod|PodGroup) \S+)re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-other-namespace";
        r.claim = name_part(m[1]);
        r.text = "Claim " + m[1] +
                 (m[2] == "Pod" ? " is not in the pod's namespace." : " is not in its PodGroup's namespace.");
      });
  add("does not belong to a PodGroup", R"re(Pod \S+ does not belong to a PodGroup)re",
      [](const groups&, dra_reason& r) {
        r.id = "podgroup-mismatch";
        r.text = "The pod's claims are bound to a PodGroup, but the pod belongs to none.";
      });
  add("belongs to PodGroup", R"re(Pod \S+ belongs to PodGroup (\S+), not PodGroup (\S+))re",
      [](const groups& m, dra_reason& r) {
        r.id = "podgroup-mismatch";
        r.text = "The pod belongs to PodGroup " + trimmed(m[1]) + ", not to PodGroup " + trimmed(m[2]) +
                 " whose claims it names.";
      });

  // k8s.io/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go.
  add_literal("resourceclaim in use", "claim-in-use",
              "A claim is in use by other pods and cannot be reserved for this one.");
  add("is in the process of being allocated", R"re(resource claim (\S+) is in the process of being allocated)re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-being-allocated";
        r.claim = name_part(m[1]);
        r.text = "Claim " + r.claim + " is being allocated for another pod.";
      });
  add("does not exist", R"re(request (\S+): device class (\S+) does not exist)re", [](const groups& m, dra_reason& r) {
    r.id = "device-class-missing";
    r.request = m[1];
    r.device_class = trimmed(m[2]);
    r.text = "Request " + r.request + " asks for device class " + r.device_class + ", which does not exist.";
  });
  add("DRAPrioritizedList feature is disabled",
      R"re((?:resource )?claim (\S+), request (\S+): has subrequests, but the DRAPrioritizedList feature is disabled)re",
      [](const groups& m, dra_reason& r) {
        r.id = "prioritized-list-disabled";
        r.claim = name_part(m[1]);
        r.request = m[2];
        r.text = "Request " + r.request + " of claim " + r.claim +
                 " lists firstAvailable alternatives, but the scheduler's DRAPrioritizedList feature is off.";
      });
  add("unknown request type", R"re(resource claim (\S+), request (\S+): unknown request type)re",
      [](const groups& m, dra_reason& r) {
        r.id = "unknown-request-type";
        r.claim = name_part(m[1]);
        r.request = m[2];
        r.text = "Request " + r.request + " of claim " + r.claim + " is of a kind the scheduler does not know.";
      });
  add("unsupported request type", R"re(request (\S+): unsupported request type)re", [](const groups& m, dra_reason& r) {
    r.id = "unknown-request-type";
    r.request = m[1];
    r.text =
        "Request " + r.request + " names no device class the scheduler can read (a kind of request it does not know).";
  });
  add("DRAOptionalNodeOperations feature",
      R"re((?:(\d+) )?resource claim (\S+) allocation requires DRAOptionalNodeOperations feature on the node)re",
      [on](const groups& m, dra_reason& r) {
        r.id = "node-lacks-optional-operations";
        r.nodes = count_of(m.maybe(1));
        r.claim = name_part(m[2]);
        r.text = "Claim " + r.claim +
                 " is allocated devices that need the DRAOptionalNodeOperations feature, which the "
                 "node does not declare" +
                 on + ".";
      });
  add("timed out trying to allocate devices", R"re(node (\S+): timed out trying to allocate devices)re",
      [](const groups& m, dra_reason& r) {
        r.id = "allocation-timeout";
        r.node = m[1];
        r.text = "Allocating devices timed out on node " + r.node + ".";
      });
  add("stop allocating devices", R"re((?:(\d+) )?asked by caller to stop allocating devices(?:: ([^,.]+))?)re",
      [on](const groups& m, dra_reason& r) {
        r.id = "allocation-stopped";
        r.nodes = count_of(m.maybe(1));
        r.text = "The scheduler stopped allocating devices before it had an answer" + on +
                 (m.has(2) ? " (" + m[2] + ")" : std::string()) + "; it tries again.";
      });
  add_per_node("cannot allocate all claims", "cannot allocate all claims", "cannot-allocate",
               "The scheduler cannot allocate all of the pod's claims" + on + ".");
  add_per_node("resourceclaim not available on the node", "resourceclaim not available on the node",
               "claim-not-available-on-node",
               "An allocated claim cannot be used" + on +
                   ": its node selector does not match, its devices need a node feature the node lacks, or its "
                   "device binding failed or timed out.");
  add_per_node("cannot schedule extended resource claim", "cannot schedule extended resource claim",
               "extended-claim-stale",
               "The pod's extended-resource claim is left from an earlier attempt" + on +
                   "; the scheduler deletes it and tries again.");
  add_per_node(
      "cannot fit resource", "cannot fit resource", "extended-resource-unavailable",
      "A requested extended resource is offered neither by a device plugin nor through a device class" + on + ".");
  add("has a mapped device and cannot be shared across pods",
      R"re((?:(\d+) )?node allocatable resource claim (\S+) has a mapped device and cannot be shared across pods)re",
      [on](const groups& m, dra_reason& r) {
        r.id = "node-allocatable-claim-shared";
        r.nodes = count_of(m.maybe(1));
        r.claim = name_part(m[2]);
        r.text = "Claim " + r.claim + " holds a device mapped to node resources, which pods cannot share" + on + ".";
      });
  add("is insufficient to cover",
      R"re((?:(\d+) )?pod level (request|limit) for (\S+) is insufficient to cover the [^,.]*)re",
      [on](const groups& m, dra_reason& r) {
        r.id = "pod-level-resources-short";
        r.nodes = count_of(m.maybe(1));
        r.text = "The pod's own " + m[2] + " of " + m[3] +
                 " is less than its containers and DRA devices need together" + on + ".";
      });
  // PreBind: binding conditions (the driver prepares the device; the scheduler waits). The
  // failure's message is the driver's, quoted by Go (%q): escaped quotes stay inside it.
  add("device binding failed",
      std::string(R"re(device binding failed: claim=([^,\s]+), reason=([^,]*), message=)re") + quoted_name,
      [](const groups& m, dra_reason& r) {
        r.id = "binding-failed";
        r.claim = trimmed(m[1]);
        std::string message = go_unquoted(m[3]);
        r.text = "The driver reported that binding the device of claim " + r.claim + " failed (" + m[2] +
                 (message.empty() ? "" : ": " + message) + ").";
      });
  // 1.37 writes the claim when Filter finds the timeout, and PreBind's own wait ends with the
  // context's words instead: "device binding timeout: context deadline exceeded".
  add("device binding timeout", R"re(device binding timeout(?:: claim=(\S+))?)re", [](const groups& m, dra_reason& r) {
    r.id = "binding-timeout";
    r.claim = trimmed(m[1]);
    r.text = (r.claim.empty() ? std::string("An allocated device") : "The device of claim " + r.claim) +
             " did not become ready in time: binding timed out; the scheduler releases it and tries again.";
  });
  add("in the meantime", R"re(claim (\S+) got (deleted|allocated elsewhere|deallocated elsewhere) in the meantime)re",
      [](const groups& m, dra_reason& r) {
        r.id = "claim-changed-while-binding";
        r.claim = name_part(m[1]);
        r.text = "Claim " + r.claim + " got " + m[2] + " while the scheduler was binding it; it tries again.";
      });
  // PostFilter: what the scheduler undid so that the next attempt can succeed.
  add_literal("deallocation of ResourceClaim completed", "claim-deallocated",
              "The scheduler released a claim's allocation to try again.");
  add_literal("deletion of ResourceClaim completed", "claim-deleted-for-retry",
              "The scheduler deleted a claim it had made to try again.");
  add_literal("deallocation and deletion of ResourceClaims completed", "claims-released-for-retry",
              "The scheduler released claims' allocations and deleted a claim it had made, to try again.");
  add_literal("deallocation of PodGroup ResourceClaim completed", "podgroup-claim-deallocated",
              "The scheduler released the allocation of a PodGroup's claim to try again.");
  add_literal("ResourceClaim unreserved for PodGroup", "podgroup-claim-unreserved",
              "The scheduler removed a PodGroup's reservation of a claim to try again.");

  // k8s.io/dynamic-resource-allocation structured/internal/*/allocator_*.go: the allocator's
  // errors about a claim or class (SchedulerError), and its per-node refusal.
  add_per_node("invalid resource pools were encountered", "invalid resource pools were encountered", "invalid-pools",
               "The scheduler met invalid resource pools" + on + ".");
  add("could not retrieve device class", R"re(could not retrieve device class ([^\s:]+):)re",
      [](const groups& m, dra_reason& r) {
        r.id = "device-class-unreadable";
        r.device_class = m[1];
        r.text = "The scheduler could not read device class " + r.device_class + ".";
      });
  add("CEL runtime error",
      R"re((?:(?:class (\S+)|claim (\S+)): selector #\d+(?: on device (\S+))?: )?CEL runtime error)re",
      [](const groups& m, dra_reason& r) {
        r.id = "cel-runtime-error";
        r.device_class = m[1];
        r.claim = m.has(2) ? name_part(m[2]) : std::string();
        std::string whose = !r.device_class.empty() ? " of class " + r.device_class
                            : !r.claim.empty()      ? " of claim " + r.claim
                                                    : std::string();
        r.text = "A CEL selector" + whose + " failed when the scheduler ran it" +
                 (m.has(3) ? " on device " + m[3] : std::string()) + ".";
      });
  add("CEL compile error", R"re((?:class (\S+)|claim (\S+)): selector #\d+: CEL compile error)re",
      [](const groups& m, dra_reason& r) {
        r.id = "cel-compile-error";
        r.device_class = m[1];
        r.claim = m.has(2) ? name_part(m[2]) : std::string();
        r.text = "A CEL selector" + (r.device_class.empty() ? " of claim " + r.claim : " of class " + r.device_class) +
                 " does not compile.";
      });
  add("resource pool",
      R"re(request (\S+): asks for all devices, but resource pool (\S+) is currently (being updated|invalid))re",
      [](const groups& m, dra_reason& r) {
        bool updating = m[3] == "being updated";
        r.id = updating ? "pool-updating" : "pool-invalid";
        r.request = m[1];
        r.text = "Request " + r.request + " asks for all devices, but resource pool " + m[2] +
                 (updating ? " is being updated." : " is invalid.");
      });
  // Requests the scheduler's features or limits refuse.
  auto refused = [&add](std::string_view needle, const std::string& rest, std::string id, std::string why) {
    add(needle, "claim (\\S+), (?:sub)?request (\\S+): " + rest, [id, why](const groups& m, dra_reason& r) {
      r.id = id;
      r.claim = name_part(m[1]);
      r.request = trimmed(m[2]);
      r.text = "Request " + r.request + " of claim " + r.claim + " " + why;
    });
  };
  refused("admin access is requested", "admin access is requested, but the feature is disabled",
          "admin-access-disabled", "asks for admin access, but the scheduler's DRAAdminAccess feature is off.");
  refused("DRAConsumableCapacity feature is disabled",
          "has capacity requests, but the DRAConsumableCapacity feature is disabled", "consumable-capacity-disabled",
          "asks for device capacity, but the scheduler's DRAConsumableCapacity feature is off.");
  refused("derived attributes", "cannot handle request with derived attributes, the feature is disabled",
          "derived-attributes-disabled", "uses derived attributes, but the scheduler's feature for them is off.");
  refused("is too large", "exact count \\d+ is too large", "request-count-too-large",
          "asks for more devices than one claim may hold.");
  refused("exceeds the claim limit", "adding \\d+ devices exceeds the claim limit of \\d+", "request-count-too-large",
          "asks for more devices than one claim may hold.");
  refused("missing device class name", "missing device class name", "unknown-request-type",
          "names no device class (a kind of request the scheduler does not know).");
  refused("unsupported count mode", "unsupported count mode", "unknown-request-type",
          "asks for devices in a way the scheduler does not know.");
  refused("because a claim constraint would not be satisfied",
          "cannot add device \\S+ because a claim constraint would not be satisfied", "constraint-unsatisfied",
          "cannot get a device that meets the claim's constraints.");
  add("CEL expression empty", R"re(claim (\S+), request (\S+), selector #\d+: CEL expression empty)re",
      [](const groups& m, dra_reason& r) {
        r.id = "unknown-selector-type";
        r.claim = name_part(m[1]);
        r.request = m[2];
        r.text = "A selector of request " + r.request + " of claim " + r.claim +
                 " is of a kind the scheduler does not know.";
      });
  add("empty constraint", R"re(claim (\S+), constraint #\d+: empty constraint)re", [](const groups& m, dra_reason& r) {
    r.id = "unknown-constraint-type";
    r.claim = name_part(m[1]);
    r.text = "A constraint of claim " + r.claim + " is of a kind the scheduler does not know.";
  });
  add_literal("filter operation aborted", "allocation-stopped",
              "The scheduler stopped allocating devices before it had an answer; it tries again.");
  return p;
}

const std::vector<pattern>& patterns() {
  static const std::vector<pattern> table = build_patterns();
  return table;
}

}  // namespace

json dra_reason::to_json() const {
  return json{{"id", id},
              {"text", text},
              {"source", source},
              {"fragment", or_null(fragment)},
              {"claim", or_null(claim)},
              {"request", or_null(request)},
              {"deviceClass", or_null(device_class)},
              {"node", or_null(node)},
              {"nodes", or_null(nodes)}};
}

bool dra_reason::same_as(const dra_reason& other) const {
  return id == other.id && claim == other.claim && request == other.request && device_class == other.device_class &&
         node == other.node;
}

scheduler_reading recognise_scheduler_message(std::string_view message) {
  scheduler_reading reading;
  const std::string_view text = message.substr(0, longest_message_read);
  static const re2::RE2 total(R"re(0/(\d+) nodes are available)re");
  if (re2::StringPiece digits; re2::RE2::PartialMatch(text, total, &digits)) {
    reading.total_nodes = count_of(std::string_view(digits));
  }
  std::vector<std::pair<std::size_t, dra_reason>> found;
  std::vector<re2::StringPiece> pieces;
  for (const pattern& p : patterns()) {
    if (text.find(p.needle) == std::string_view::npos) {
      continue;
    }
    const re2::RE2& expression = *p.expression;
    pieces.assign(static_cast<std::size_t>(1 + expression.NumberOfCapturingGroups()), re2::StringPiece());
    std::size_t from = 0;
    while (from <= text.size() && expression.Match(text, from, text.size(), re2::RE2::UNANCHORED, pieces.data(),
                                                   static_cast<int>(pieces.size()))) {
      const std::size_t at = static_cast<std::size_t>(pieces[0].data() - text.data());
      from = at + std::max<std::size_t>(pieces[0].size(), 1);
      dra_reason reason;
      reason.source = "scheduler";
      reason.fragment = std::string(std::string_view(pieces[0]));
      p.fill(groups(pieces), reason);
      if (auto placeholder = reason.text.find(nodes_placeholder); placeholder != std::string::npos) {
        reason.text.replace(placeholder, nodes_placeholder.size(), on_nodes(reason.nodes, reading.total_nodes));
      }
      bool known = std::any_of(found.begin(), found.end(),
                               [&reason](const auto& entry) { return entry.second.same_as(reason); });
      if (!known) {
        found.emplace_back(at, std::move(reason));
      }
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [position, reason] : found) {
    reading.reasons.push_back(std::move(reason));
  }
  return reading;
}

}  // namespace sextant::dra
