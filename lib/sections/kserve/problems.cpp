// The `kserve` problem category: an Inference Service whose model failed to load (at once), one
// whose spec KServe cannot run (after 2 minutes), and one not ready (after 10 minutes; a very
// large model still downloading can reach it, and the message then says what the model status
// says). Stopped and deleting services have none. Messages come from the reading, whose texts
// are masked.
#include <chrono>

#include "sections/common/objects.hpp"
#include "sections/common/words.hpp"
#include "sections/kserve/inference_service_reading.hpp"
#include "sections/kserve/kserve_section.hpp"

namespace sextant::kserve {
namespace {

using std::chrono::minutes;
using std::chrono::seconds;

constexpr seconds failed_to_load_after{0};
constexpr minutes invalid_spec_after{2};
constexpr minutes not_ready_after{10};

std::vector<finding> service_findings(const cached_object& service, const view_context& context) {
  (void)context;
  if (being_deleted(service.body())) {
    return {};
  }
  service_reading reading = read_service(service);
  if (reading.stopped) {
    return {};
  }
  if (reading.failed_to_load) {
    return {finding{"model-failed-to-load", reading.since.since, failed_to_load_after,
                    problem_message("The model failed to load", reading.state)}};
  }
  if (reading.invalid_spec) {
    return {finding{"invalid-spec", reading.since.since, invalid_spec_after,
                    problem_message("KServe cannot run the spec", reading.state)}};
  }
  if (reading.not_ready) {
    std::string message = problem_message("Inference Service not ready", reading.state);
    if (!reading.model.words.empty() && reading.state.message != reading.model.words) {
      message += " " + reading.model.words;
    }
    return {finding{"not-ready", reading.since.since, not_ready_after, message}};
  }
  return {};
}

}  // namespace

std::vector<problem_rule> problem_rules() {
  return {problem_rule{std::string(problems_category), inference_service_kind, service_findings}};
}

}  // namespace sextant::kserve
