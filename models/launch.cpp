#include "models/launch.hpp"

#include "models/error.hpp"

namespace roofline {

std::string_view to_string(CacheState c) { return c == CacheState::cold ? "cold" : "warm"; }

CacheState cache_state_from_string(std::string_view s) {
  if (s == "cold") return CacheState::cold;
  if (s == "warm") return CacheState::warm;
  throw InputError("unknown cache state '" + std::string(s) + "' (expected cold or warm)");
}

}  // namespace roofline
