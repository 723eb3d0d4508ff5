#pragma once
// "Did you mean" support for unknown ids (GPUs, kernels, metrics).
#include <string>
#include <string_view>
#include <vector>

namespace roofline {

// Up to `count` candidates nearest to `name` by edit distance (ties keep input order).
std::vector<std::string> closest_matches(std::string_view name, const std::vector<std::string>& candidates,
                                         std::size_t count = 3);

// "unknown <what> 'x'; closest: a, b, c" — the one line the CLI prints.
std::string unknown_name_message(std::string_view what, std::string_view name,
                                 const std::vector<std::string>& candidates);

}  // namespace roofline
