#include "sections/dra/scheduler_reasons.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <regex>

namespace sextant::dra {
namespace {

// A name as the scheduler prints it may end a sentence: drop the punctuation that follows.
std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '.' || text.back() == ',' || text.back() == ';')) {
    text.pop_back();
  }
  return text;
}

// "ns/name" -> "name".
std::string name_part(const std::string& qualified) {
  auto slash = qualified.rfind('/');
  return trimmed(slash == std::string::npos ? qualified : qualified.substr(slash + 1));
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

struct pattern {
  std::string_view needle;  // a literal the text must contain before the regex is tried
  std::regex expression;
  std::function<void(const std::smatch&, dra_reason&)> fill;
};

// Digits as a number; nullopt when absent or too large (no exception escapes a reader).
std::optional<std::int64_t> count_of(const std::ssub_match& group) {
  if (!group.matched) {
    return std::nullopt;
  }
  std::string digits = group.str();
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

const std::vector<pattern>& patterns() {
  static const std::vector<pattern> table = [] {
    std::vector<pattern> p;
    auto add = [&p](std::string_view needle, const char* expression,
                    std::function<void(const std::smatch&, dra_reason&)> fill) {
      p.push_back(pattern{needle, std::regex(expression), std::move(fill)});
    };
    add("ResourceClaim not created yet", R"re(pod "[^"]+": ResourceClaim not created yet)re",
        [](const std::smatch&, dra_reason& r) {
          r.id = "claim-not-created";
          r.text = "A claim of the pod is not created yet from its template.";
        });
    add("none of the supported fields are set",
        R"re(spec\.resourceClaim "([^"]+)": none of the supported fields are set)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-source-missing";
          r.text = "Pod claim " + m[1].str() + " names neither a claim nor a template.";
        });
    add("not found", R"re(resourceclaims?(?:\.resource\.k8s\.io)? "([^"]+)" not found)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-not-found";
          r.claim = m[1].str();
          r.text = "Claim " + r.claim + " does not exist.";
        });
    add("is being deleted", R"re(resourceclaim "([^"]+)" is being deleted)re", [](const std::smatch& m, dra_reason& r) {
      r.id = "claim-deleting";
      r.claim = m[1].str();
      r.text = "Claim " + r.claim + " is being deleted.";
    });
    add("was not created for", R"re(ResourceClaim (\S+) was not created for (?:Pod )?(\S+) \(([^)]*)\))re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-not-owned";
          r.claim = name_part(m[1].str());
          r.text = "Claim " + r.claim + " was not created for this pod: " + m[3].str() + ".";
        });
    add("is not in the same namespace", R"re(ResourceClaim (\S+) is not in the same namespace as Pod)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-other-namespace";
          r.claim = name_part(m[1].str());
          r.text = "Claim " + m[1].str() + " is not in the pod's namespace.";
        });
    add("resourceclaim in use", R"re(resourceclaim in use)re", [](const std::smatch&, dra_reason& r) {
      r.id = "claim-in-use";
      r.text = "A claim is in use by other pods and cannot be reserved for this one.";
    });
    add("is in the process of being allocated", R"re(resource claim (\S+) is in the process of being allocated)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-being-allocated";
          r.claim = name_part(m[1].str());
          r.text = "Claim " + r.claim + " is being allocated for another pod.";
        });
    add("does not exist", R"re(request (\S+): device class (\S+) does not exist)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "device-class-missing";
          r.request = m[1].str();
          r.device_class = m[2].str();
          r.text = "Request " + r.request + " asks for device class " + r.device_class + ", which does not exist.";
        });
    add("DRAPrioritizedList feature is disabled",
        R"re(resource claim (\S+), request (\S+): has subrequests, but the DRAPrioritizedList feature is disabled)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "prioritized-list-disabled";
          r.claim = name_part(m[1].str());
          r.request = m[2].str();
          r.text = "Request " + r.request + " of claim " + r.claim +
                   " lists firstAvailable alternatives, but the scheduler's DRAPrioritizedList feature is off.";
        });
    add("unknown request type", R"re(resource claim (\S+), request (\S+): unknown request type)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "unknown-request-type";
          r.claim = name_part(m[1].str());
          r.request = m[2].str();
          r.text = "Request " + r.request + " of claim " + r.claim + " is of a kind the scheduler does not know.";
        });
    add("cannot allocate all claims", R"re((?:(\d+) )?cannot allocate all claims)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "cannot-allocate";
          r.nodes = count_of(m[1]);
          r.text = "The scheduler cannot allocate all of the pod's claims" + std::string(nodes_placeholder) + ".";
        });
    add("resourceclaim not available on the node", R"re((?:(\d+) )?resourceclaim not available on the node)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "claim-not-available-on-node";
          r.nodes = count_of(m[1]);
          r.text = "An allocated claim cannot be used" + std::string(nodes_placeholder) +
                   ": its node selector does not match, or its device binding failed or timed out.";
        });
    add("invalid resource pools were encountered", R"re((?:(\d+) )?invalid resource pools were encountered)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "invalid-pools";
          r.nodes = count_of(m[1]);
          r.text = "The scheduler met invalid resource pools" + std::string(nodes_placeholder) + ".";
        });
    add("timed out trying to allocate devices", R"re(node (\S+): timed out trying to allocate devices)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "allocation-timeout";
          r.node = m[1].str();
          r.text = "Allocating devices timed out on node " + r.node + ".";
        });
    add("device binding failed", R"re(device binding failed: claim=([^,\s]+), reason=([^,]*), message="(.*?)")re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "binding-failed";
          r.claim = trimmed(m[1].str());
          r.text = "The driver reported that binding the device of claim " + r.claim + " failed (" + m[2].str() +
                   (m[3].str().empty() ? "" : ": " + m[3].str()) + ").";
        });
    add("device binding timeout", R"re(device binding timeout: claim=(\S+))re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "binding-timeout";
          r.claim = trimmed(m[1].str());
          r.text = "The device of claim " + r.claim + " did not become ready in time: binding timed out.";
        });
    add("could not retrieve device class", R"re(could not retrieve device class (\S+?):)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "device-class-unreadable";
          r.device_class = m[1].str();
          r.text = "The scheduler could not read device class " + r.device_class + ".";
        });
    add("CEL runtime error", R"re((?:class (\S+): )?(?:selector #\d+: )?CEL runtime error)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "cel-runtime-error";
          r.device_class = m[1].matched ? m[1].str() : std::string();
          r.text = "A CEL selector" + (r.device_class.empty() ? std::string() : " of class " + r.device_class) +
                   " failed when the scheduler ran it.";
        });
    add("is currently being updated", R"re(resource pool (\S+) is currently being updated)re",
        [](const std::smatch& m, dra_reason& r) {
          r.id = "pool-updating";
          r.text = "A request asks for all devices, but resource pool " + m[1].str() + " is being updated.";
        });
    add("deallocation of ResourceClaim completed", R"re(deallocation of ResourceClaim completed)re",
        [](const std::smatch&, dra_reason& r) {
          r.id = "claim-deallocated";
          r.text = "The scheduler released a claim's allocation to try again.";
        });
    add("deletion of ResourceClaim completed", R"re(deletion of ResourceClaim completed)re",
        [](const std::smatch&, dra_reason& r) {
          r.id = "claim-deleted-for-retry";
          r.text = "The scheduler deleted a claim it had made to try again.";
        });
    return p;
  }();
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
  std::string text(message);
  static const std::regex total(R"re(0/(\d+) nodes are available)re");
  if (std::smatch match; std::regex_search(text, match, total)) {
    reading.total_nodes = count_of(match[1]);
  }
  std::vector<std::pair<std::ptrdiff_t, dra_reason>> found;
  for (const pattern& p : patterns()) {
    if (text.find(p.needle) == std::string::npos) {
      continue;
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), p.expression); it != std::sregex_iterator(); ++it) {
      dra_reason reason;
      reason.source = "scheduler";
      reason.fragment = it->str();
      p.fill(*it, reason);
      if (auto at = reason.text.find(nodes_placeholder); at != std::string::npos) {
        reason.text.replace(at, nodes_placeholder.size(), on_nodes(reason.nodes, reading.total_nodes));
      }
      bool known = std::any_of(found.begin(), found.end(),
                               [&reason](const auto& entry) { return entry.second.same_as(reason); });
      if (!known) {
        found.emplace_back(it->position(), std::move(reason));
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
