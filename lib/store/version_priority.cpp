#include "store/version_priority.hpp"

#include <algorithm>
#include <optional>
#include <tuple>

namespace sextant {
namespace {

struct kube_version {
  int stability = 0;  // 0 GA, 1 beta, 2 alpha
  long major = 0;
  long minor = 0;
};

std::optional<long> number(std::string_view text) {
  if (text.empty() || text.size() > 9 || text.front() == '0') {
    return std::nullopt;
  }
  long value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + (c - '0');
  }
  return value;
}

// v<major>[(alpha|beta)<minor>]
std::optional<kube_version> parse(std::string_view text) {
  if (text.size() < 2 || text.front() != 'v') {
    return std::nullopt;
  }
  text.remove_prefix(1);
  std::size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    ++digits;
  }
  auto major = number(text.substr(0, digits));
  if (!major) {
    return std::nullopt;
  }
  std::string_view rest = text.substr(digits);
  if (rest.empty()) {
    return kube_version{0, *major, 0};
  }
  for (auto [word, stability] : {std::pair{std::string_view("beta"), 1}, std::pair{std::string_view("alpha"), 2}}) {
    if (rest.starts_with(word)) {
      std::string_view tail = rest.substr(word.size());
      if (tail.empty()) {
        return kube_version{stability, *major, 0};
      }
      if (auto minor = number(tail)) {
        return kube_version{stability, *major, *minor};
      }
    }
  }
  return std::nullopt;
}

}  // namespace

bool higher_version_priority(std::string_view a, std::string_view b) {
  auto va = parse(a);
  auto vb = parse(b);
  if (va && vb) {
    return std::tuple(va->stability, -va->major, -va->minor) < std::tuple(vb->stability, -vb->major, -vb->minor);
  }
  if (va != std::nullopt || vb != std::nullopt) {
    return va.has_value();  // Kubernetes versions first
  }
  return a < b;
}

void sort_by_version_priority(std::vector<std::string>& versions) {
  std::stable_sort(versions.begin(), versions.end(),
                   [](const std::string& a, const std::string& b) { return higher_version_priority(a, b); });
}

}  // namespace sextant
