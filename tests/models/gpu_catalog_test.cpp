// The GPU models: every required model is there, every value has a source, and a bad GPU
// file is refused with its line and key.
#include <gtest/gtest.h>

#include "models/error.hpp"
#include "models/gpu_catalog.hpp"

namespace roofline {
namespace {

TEST(GpuCatalog, HasTheRequiredModels) {
  for (const char* id : {"h100-sxm", "h100-pcie", "h200", "a100-sxm-80gb", "rtx-4090", "rtx-4060", "rtx-5090"})
    EXPECT_EQ(find_gpu(id).id, id);
}

TEST(GpuCatalog, DatasheetValuesOfTheH100) {
  const GpuSpec& g = find_gpu("h100-sxm");
  EXPECT_EQ(g.sm_count.value, 132);
  EXPECT_EQ(g.sm_count.source, Source::datasheet);
  EXPECT_EQ(g.l2_bytes.value, 52'428'800);
  EXPECT_EQ(g.dram_bandwidth.value, 3.352e12);
  EXPECT_EQ(g.dram_bandwidth_sustained.source, Source::measured_elsewhere);
  EXPECT_FALSE(g.dram_bandwidth_sustained.note.empty());
  EXPECT_EQ(g.arch, "sm_90");
  // FP32 peak 132 SMs x 128 FMA x 2 FLOP x 1.98 GHz = 66.9 TFLOP/s.
  EXPECT_NEAR(g.sm_count.value * g.fp32_fma_per_clock_per_sm.value * 2 * g.sm_clock_hz.value, 66.9e12, 0.05e12);
}

TEST(GpuCatalog, EveryParameterIsPositiveOrAllowedZero) {
  for (const auto& g : builtin_gpus())
    for (const auto& p : gpu_params()) {
      const Quantity& q = g.*(p.member);
      if (p.key == "l2_fabric_factor") EXPECT_GE(q.value, 0) << g.id;
      else if (p.key == "tensor_wgmma_fma_per_clock_per_sm" && g.arch != "sm_90") EXPECT_EQ(q.value, 0) << g.id;
      else EXPECT_GT(q.value, 0) << g.id << " " << p.key;
    }
}

// A value nobody measured on the GPU says where it comes from: which measurement elsewhere, or
// which datasheet or architecture fact it derives from.
TEST(GpuCatalog, EveryValueNotFromADatasheetSaysWhereItComesFrom) {
  for (const auto& g : builtin_gpus())
    for (const auto& p : gpu_params()) {
      const Quantity& q = g.*(p.member);
      if (q.source != Source::datasheet && q.source != Source::device_query) {
        EXPECT_FALSE(q.note.empty()) << g.id << " " << p.key << " (" << to_string(q.source) << ") has no note";
      }
    }
}

// Ada and Blackwell consumer parts have one L2: no fabric, and no duplicate copy per half, so
// the H100's split-L2 residency fractions (each half holding its own copy) double.
TEST(GpuCatalog, UnifiedL2PartsDoNotCarryTheSplitL2Residency) {
  const GpuSpec& h100 = find_gpu("h100-sxm");
  ASSERT_EQ(h100.l2_partitions.value, 2);
  for (const char* id : {"rtx-4060", "rtx-4090", "rtx-5090"}) {
    const GpuSpec& g = find_gpu(id);
    EXPECT_EQ(g.l2_partitions.value, 1) << id;
    EXPECT_EQ(g.l2_fabric_factor.value, 0) << id;
    EXPECT_DOUBLE_EQ(g.l2_resident_lo_fraction.value, h100.l2_resident_lo_fraction.value * 2) << id;
    EXPECT_DOUBLE_EQ(g.l2_resident_hi_fraction.value, h100.l2_resident_hi_fraction.value * 2) << id;
  }
  EXPECT_EQ(assumed_params(h100),
            (std::vector<std::string_view>{"l2_resident_hi_fraction", "lsu_wavefronts_per_clock_per_sm",
                                           "l1_wavefront_bytes", "atomic_unit_bytes"}));
}

TEST(GpuCatalog, UnknownIdNamesTheClosest) {
  try {
    find_gpu("h100");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown GPU 'h100'; closest: h200, h100-sxm, h100-pcie (see `roofline gpus`)");
  }
}

TEST(GpuCatalog, BadFilesNameLineAndKey) {
  auto error_of = [](std::string_view text) {
    try {
      parse_gpu_spec(text, "g.toml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  const std::string head = "id = \"x\"\nname = \"X\"\narch = \"sm_90\"\ncompute_capability = \"9.0\"\n";
  EXPECT_EQ(error_of(head + "[rumoured]\nsm_count = 1\n"),
            "g.toml:5: rumoured: unknown section (expected datasheet, device-query, calibrated, measured-elsewhere, "
            "compiler or assumed)");
  EXPECT_EQ(error_of(head + "[datasheet]\nsm_cont = 1\n").substr(0, 55),
            "g.toml:6: [datasheet]: sm_cont: unknown GPU parameter '");
  EXPECT_EQ(error_of(head + "[datasheet]\nsm_count = 1\n[assumed]\nsm_count = 2\n"),
            "g.toml:8: [assumed]: sm_count: given twice (each parameter has one source)");
  EXPECT_EQ(error_of(head + "[datasheet]\nsm_count = 1\n").substr(0, 20), "g.toml:1: sm_clock_h");
}

}  // namespace
}  // namespace roofline
