#include "models/gpu_match.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace roofline {
namespace {

// Lower-case alphanumeric tokens, without the vendor word.
std::set<std::string> name_tokens(std::string_view name) {
  std::set<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (!current.empty() && current != "nvidia") tokens.insert(current);
    current.clear();
  };
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)))
      current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else
      flush();
  }
  flush();
  return tokens;
}

int name_score(const DeviceInfo& device, const GpuSpec& gpu) {
  const auto dev = name_tokens(device.name);
  auto model = name_tokens(gpu.name);
  for (auto& t : name_tokens(gpu.id)) model.insert(t);
  return static_cast<int>(std::count_if(dev.begin(), dev.end(), [&](const std::string& t) { return model.count(t) > 0; }));
}

}  // namespace

const GpuSpec* match_gpu(const DeviceInfo& device, std::span<const GpuSpec> catalog) {
  const GpuSpec* best = nullptr;
  int best_score = -1, candidates = 0;
  // Same compute capability and SM count: the name breaks ties, and where models tie on both (an
  // H100 SXM and an H200) a name that matches none of them is no match.
  for (const auto& gpu : catalog) {
    if (gpu.cc_major != device.cc_major || gpu.cc_minor != device.cc_minor) continue;
    if (static_cast<int>(gpu.sm_count.value) != device.sm_count) continue;
    ++candidates;
    const int score = name_score(device, gpu);
    if (score > best_score) {
      best = &gpu;
      best_score = score;
    }
  }
  if (best != nullptr && (best_score > 0 || candidates == 1)) return best;
  best = nullptr;
  best_score = -1;
  // A cut-down part (other SM count) of a known model: needs a name match.
  for (const auto& gpu : catalog) {
    if (gpu.cc_major != device.cc_major || gpu.cc_minor != device.cc_minor) continue;
    const int score = name_score(device, gpu);
    if (score > 0 && score > best_score) {
      best = &gpu;
      best_score = score;
    }
  }
  return best;
}

const GpuSpec* nearest_gpu(const DeviceInfo& device, std::span<const GpuSpec> catalog) {
  const int cc = 10 * device.cc_major + device.cc_minor;
  // Smaller is nearer: the same capability, then older architectures newest first, then newer
  // ones oldest first; the SM count breaks ties.
  const auto distance = [&](const GpuSpec& g) {
    const int other = 10 * g.cc_major + g.cc_minor;
    const int arch = other == cc ? 0 : other < cc ? cc - other : 1000 + other - cc;
    return std::pair{arch, std::abs(static_cast<int>(g.sm_count.value) - device.sm_count)};
  };
  const GpuSpec* best = nullptr;
  for (const auto& g : catalog)
    if (best == nullptr || distance(g) < distance(*best)) best = &g;
  return best;
}

}  // namespace roofline
