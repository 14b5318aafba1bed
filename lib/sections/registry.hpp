#pragma once
#include <vector>

#include "sections/section.hpp"

namespace sextant {

// Every section the daemon knows, in sidebar order. The one list to edit when adding one.
std::vector<section> all_sections();

}  // namespace sextant
