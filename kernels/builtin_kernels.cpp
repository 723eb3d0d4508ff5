#include "kernels/builtin_kernels.hpp"

#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

#include "models/embedded_file.hpp"
#include "models/error.hpp"
#include "models/spec_file.hpp"

namespace roofline {

// Generated at build time from kernels/*.toml (kernels/CMakeLists.txt).
std::vector<EmbeddedFile> builtin_kernel_files();

namespace {
const std::vector<KernelSpec>& suite() {
  static const std::vector<KernelSpec> specs = [] {
    std::vector<KernelSpec> all;
    std::set<std::string, std::less<>> seen;
    for (const EmbeddedFile& f : builtin_kernel_files()) {
      for (KernelSpec& k : parse_kernel_specs(f.text, f.name)) {
        if (!seen.insert(k.name).second)
          throw Error(fmt::format("{}: built-in kernel '{}' is declared twice", f.name, k.name));
        all.push_back(std::move(k));
      }
    }
    return all;
  }();
  return specs;
}
}  // namespace

std::span<const KernelSpec> builtin_kernels() { return suite(); }

const KernelSpec* find_builtin_kernel(std::string_view name) {
  for (const KernelSpec& k : suite())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace roofline
