#include "sections/registry.hpp"

#include "sections/core/core_section.hpp"

namespace sextant {

std::vector<section> all_sections() {
  std::vector<section> sections;
  sections.push_back(core::make_section());
  return sections;
}

}  // namespace sextant
