// Calibrated values override a GPU model's parameters with Source::calibrated and a note that
// names the date, run and method; extra.* and unknown keys are kept out of the model.
#include <gtest/gtest.h>

#include <limits>

#include "models/calibration.hpp"
#include "models/gpu_catalog.hpp"

namespace roofline {
namespace {

Calibration sample() {
  Calibration c;
  c.device_uuid = "GPU-1234";
  c.device_name = "NVIDIA H100 80GB HBM3";
  c.date = "2025-01-02T03:04:05Z";
  c.roofline_version = "0.1.0";
  c.run_id = 42;
  c.values = {
      {"dram_bandwidth_sustained", 3.05e12, 0.004, "copy kernel"},
      {"l2_loaded_latency_ns", 271.5, 0.021, "Little's law"},
      {"extra.dram_read_bandwidth", 3.2e12, 0.01, "read-only kernel"},
      {"no_such_parameter", 7.0, 0.0, "from a future version"},
      {"l2_bandwidth", std::numeric_limits<double>::quiet_NaN(), 0.0, "failed"},
      {"launch_overhead_ns", 0.0, 0.0, "nothing measured"},
  };
  return c;
}

TEST(Calibration, OverridesOnlyCalibratedParameters) {
  const GpuSpec& base = find_gpu("h100-sxm");
  const GpuSpec g = apply_calibration(base, sample());
  EXPECT_EQ(g.dram_bandwidth_sustained.value, 3.05e12);
  EXPECT_EQ(g.dram_bandwidth_sustained.source, Source::calibrated);
  EXPECT_EQ(g.dram_bandwidth_sustained.note,
            "calibrated 2025-01-02T03:04:05Z on GPU-1234 (calibration run 42): copy kernel, spread 0.4 %");
  EXPECT_EQ(g.l2_loaded_latency_ns.value, 271.5);
  EXPECT_EQ(g.l2_loaded_latency_ns.source, Source::calibrated);
  EXPECT_NE(g.l2_loaded_latency_ns.note.find("spread 2.1 %"), std::string::npos);
  // Not measured (NaN, 0): the model's values stay.
  EXPECT_EQ(g.l2_bandwidth.value, base.l2_bandwidth.value);
  EXPECT_EQ(g.l2_bandwidth.source, base.l2_bandwidth.source);
  EXPECT_EQ(g.launch_overhead_ns.value, base.launch_overhead_ns.value);
  // Everything else is untouched.
  EXPECT_EQ(g.sm_count.value, base.sm_count.value);
  EXPECT_EQ(g.dram_bandwidth.source, base.dram_bandwidth.source);
  EXPECT_EQ(g.id, base.id);
}

// Calibrations stored before the model took up a value kept it as an extra under another name
// (the cold-wave step's, an empty kernel's period back to back); applying one still sets the
// parameter from it.
TEST(Calibration, OldExtraKeysSetTheParametersTheyBecame) {
  for (const auto& [key, param] : {std::pair{"extra.dram_cold_wave_excess_ns", &GpuSpec::launch_fill_ns},
                                   std::pair{"extra.launch_throughput_ns", &GpuSpec::launch_throughput_ns}}) {
    Calibration c = sample();
    c.values.push_back({key, 410.4, 0.44, "what the step measured"});
    const GpuSpec g = apply_calibration(find_gpu("h200"), c);
    EXPECT_EQ((g.*param).value, 410.4) << key;
    EXPECT_EQ((g.*param).source, Source::calibrated) << key;
    EXPECT_NE((g.*param).note.find("what the step measured, spread 44.0 %"), std::string::npos) << key;
  }
}

TEST(Calibration, ExtraAndUnknownKeysAreNotParameters) {
  EXPECT_TRUE(is_extra_key("extra.dram_read_bandwidth"));
  EXPECT_FALSE(is_extra_key("dram_bandwidth_sustained"));
  EXPECT_FALSE(is_extra_key("extr"));
  EXPECT_EQ(find_gpu_param("extra.dram_read_bandwidth"), nullptr);
  EXPECT_EQ(find_gpu_param("no_such_parameter"), nullptr);
  ASSERT_NE(find_gpu_param("l2_fabric_factor"), nullptr);
  EXPECT_EQ(find_gpu_param("l2_fabric_factor")->unit, "ratio");
  const Calibration c = sample();
  ASSERT_NE(find_value(c, "extra.dram_read_bandwidth"), nullptr);
  EXPECT_EQ(find_value(c, "extra.dram_read_bandwidth")->value, 3.2e12);
  EXPECT_EQ(find_value(c, "l2_latency_ns"), nullptr);
}

TEST(Calibration, UnitsAndDescription) {
  EXPECT_EQ(calibrated_unit("dram_bandwidth_sustained"), "B/s");
  EXPECT_EQ(calibrated_unit("l2_fabric_factor"), "ratio");
  EXPECT_EQ(calibrated_unit("extra.dram_read_bandwidth.one_shot"), "B/s");
  EXPECT_EQ(calibrated_unit("extra.l1_latency_ns"), "ns");
  EXPECT_EQ(calibrated_unit("extra.fp32_fma_rate"), "FMA/s");
  EXPECT_EQ(calibrated_unit("extra.something"), "ratio");
  EXPECT_EQ(describe(sample()), "calibration run 42 of GPU-1234 (NVIDIA H100 80GB HBM3), 2025-01-02T03:04:05Z");
}

TEST(Calibration, EveryParameterKeyCanBeCalibrated) {
  Calibration c;
  c.date = "d";
  for (const auto& p : gpu_params()) c.values.push_back({std::string(p.key), 1.5, 0.0, "m"});
  const GpuSpec g = apply_calibration(find_gpu("h100-sxm"), c);
  for (const auto& p : gpu_params()) {
    EXPECT_EQ((g.*(p.member)).value, 1.5) << p.key;
    EXPECT_EQ((g.*(p.member)).source, Source::calibrated) << p.key;
  }
}

}  // namespace
}  // namespace roofline
