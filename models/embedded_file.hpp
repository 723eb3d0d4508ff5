#pragma once
// A data file compiled into the binary (GPU models, built-in kernel specs).
#include <string_view>
#include <vector>

namespace roofline {

struct EmbeddedFile {
  std::string_view name;
  std::string_view text;
};

}  // namespace roofline
