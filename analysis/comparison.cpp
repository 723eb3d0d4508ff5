#include "analysis/comparison.hpp"

namespace roofline {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::ok: return "ok";
    case Verdict::over: return "over";
    case Verdict::under: return "under";
    case Verdict::missing: return "missing";
  }
  return "?";
}

}  // namespace roofline
