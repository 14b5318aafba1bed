#include "sections/registry.hpp"

#include "sections/core/core_section.hpp"
#include "sections/dra/dra_section.hpp"
#include "sections/gpu_operator/gpu_operator_section.hpp"
#include "sections/jobset/jobset_section.hpp"
#include "sections/kserve/kserve_section.hpp"
#include "sections/kuberay/kuberay_section.hpp"
#include "sections/kueue/kueue_section.hpp"

namespace sextant {

std::vector<section> all_sections() {
  std::vector<section> sections;
  sections.push_back(core::make_section());
  sections.push_back(dra::make_section());
  sections.push_back(kueue::make_section());
  sections.push_back(jobset::make_section());
  sections.push_back(gpu_operator::make_section());
  sections.push_back(kuberay::make_section());
  sections.push_back(kserve::make_section());
  return sections;
}

}  // namespace sextant
