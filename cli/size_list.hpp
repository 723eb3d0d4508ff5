#pragma once
// Parsing element counts as users write them: 268435456, 256M, 1Mi, 2^28, 1<<20, lists by comma.
#include <cstdint>
#include <string_view>
#include <vector>

namespace roofline {

// K/M/G are powers of two (1M = 2^20 elements, as the blog experiments the
// suite reproduces use them). Throws InputError
// naming the bad item; N <= 0 is an error.
std::int64_t parse_size(std::string_view text);
std::vector<std::int64_t> parse_size_list(std::string_view text);

}  // namespace roofline
