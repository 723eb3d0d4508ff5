#pragma once
// Choosing kernels from the command line: names or globs (`add_*`), a suite, or a user's
// spec file. Built-in kernels get their registers from the compiler report for the GPU's arch.
#include <string>
#include <vector>

#include "models/kernel_spec.hpp"

namespace roofline {

struct KernelQuery {
  std::vector<std::string> patterns;  // names or globs; empty = all
  std::string suite;                  // category filter; empty = all
  std::string spec_file;              // user specs instead of the built-in suite
};

// Throws InputError naming the closest kernels for an unknown name, and for a glob or suite
// that matches nothing.
std::vector<KernelSpec> select_kernels(const KernelQuery& query);

}  // namespace roofline
