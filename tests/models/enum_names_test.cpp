// Every enum's stored spelling, both ways: the names are written to databases, so a change
// here breaks every stored run.
#include "models/enum_names.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <utility>

#include "models/dtype.hpp"
#include "models/kernel_spec.hpp"
#include "models/launch.hpp"
#include "models/measurement.hpp"
#include "models/prediction.hpp"
#include "models/run.hpp"
#include "models/source.hpp"

using namespace roofline;

namespace {
enum class Colour { red, green, blue };
constexpr EnumNames<Colour, 3> kColours{{{Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}}};

std::string error_of(std::string_view name) {
  try {
    (void)value_of(kColours, name, "colour");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(EnumNames, LooksUpBothWays) {
  EXPECT_EQ(name_of(kColours, Colour::green), "green");
  EXPECT_EQ(find_value(kColours, "blue"), Colour::blue);
  EXPECT_EQ(find_value(kColours, "Blue"), std::nullopt);
  EXPECT_EQ(value_of(kColours, "red", "colour"), Colour::red);
  EXPECT_EQ(name_of(kColours, static_cast<Colour>(7)), "?");
  static_assert(name_of(kColours, Colour::blue) == "blue");
}

TEST(EnumNames, UnknownNameListsTheKnownOnes) {
  EXPECT_EQ(name_list(kColours), "red, green or blue");
  EXPECT_EQ(error_of("mauve"), "unknown colour 'mauve' (expected red, green or blue)");
}

TEST(EnumNames, StoredSpellingsRoundTrip) {
  for (auto [v, s] : {std::pair{RunStatus::running, "running"}, {RunStatus::complete, "complete"},
                      {RunStatus::partial, "partial"}, {RunStatus::failed, "failed"}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(run_status_from_string(s), v);
  }
  for (auto [v, s] : {std::pair{RunKind::suite, "suite"}, {RunKind::profile, "profile"}, {RunKind::import, "import"}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(run_kind_from_string(s), v);
  }
  for (auto [v, s] : {std::pair{CounterStatus::collected, "collected"}, {CounterStatus::timing_only, "timing-only"},
                      {CounterStatus::not_requested, "not-requested"}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(counter_status_from_string(s), v);
  }
  for (auto [v, s] : {std::pair{CacheState::cold, "cold"}, {CacheState::warm, "warm"}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(cache_state_from_string(s), v);
  }
  for (auto [v, s] : {std::pair{Source::datasheet, "datasheet"}, {Source::device_query, "device-query"},
                      {Source::calibrated, "calibrated"}, {Source::measured_elsewhere, "measured-elsewhere"},
                      {Source::compiler, "compiler"}, {Source::spec_file, "spec-file"}, {Source::assumed, "assumed"}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(source_from_string(s), v);
  }
  const char* bounds[] = {"dram", "l2", "lsu", "issue", "compute", "latency", "launch"};
  for (std::size_t i = 0; i < std::size(kAllBounds); ++i) {
    EXPECT_EQ(to_string(kAllBounds[i]), bounds[i]);
    EXPECT_EQ(bound_kind_from_string(bounds[i]), kAllBounds[i]);
  }
  for (auto [v, s, bytes] : {std::tuple{DType::f32, "f32", 4}, {DType::f16, "f16", 2}, {DType::bf16, "bf16", 2},
                             {DType::fp8_e4m3, "fp8_e4m3", 1}, {DType::f64, "f64", 8}, {DType::i32, "i32", 4},
                             {DType::u8, "u8", 1}}) {
    EXPECT_EQ(to_string(v), s);
    EXPECT_EQ(dtype_from_string(s), v);
    EXPECT_EQ(size_bytes(v), bytes);
  }
  EXPECT_EQ(dtype_from_string("f33"), std::nullopt);
  EXPECT_EQ(to_string(AccessOp::store), "store");
  EXPECT_EQ(to_string(CacheHint::last_use), "last-use");
  EXPECT_EQ(to_string(GridPolicy::one_shot), "one-shot");
  EXPECT_EQ(to_string(GridPolicy::grid_stride), "grid-stride");
  EXPECT_EQ(to_string(FlopOp::fma), "fma");
}

TEST(EnumNames, FromStringErrorsSayWhatIsExpected) {
  try {
    (void)cache_state_from_string("hot");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown cache state 'hot' (expected cold or warm)");
  }
}
