#pragma once
// Kubernetes' version priority (the order discovery lists a CRD's versions in): GA before
// beta before alpha, higher major then higher minor first (v2, v1, v1beta2, v1beta1,
// v1alpha1); names that are not Kubernetes versions last, alphabetically. Snapshot mode needs
// it to prefer the version a real API server would.
#include <string>
#include <string_view>
#include <vector>

namespace sextant {

// Whether `a` comes before `b`.
bool higher_version_priority(std::string_view a, std::string_view b);
void sort_by_version_priority(std::vector<std::string>& versions);

}  // namespace sextant
