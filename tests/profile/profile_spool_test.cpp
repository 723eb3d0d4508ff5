// The spool reader: what the injection library writes, read back into launches.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "cli/profile_spool.hpp"

namespace roofline {
namespace {

namespace fs = std::filesystem;

class SpoolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("spool-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void append(const std::string& file, const std::string& text) {
    std::ofstream(dir_ / file, std::ios::app) << text;
  }
  fs::path dir_;
};

constexpr const char* kProcess = R"J({"type":"process","pid":123,"exe":"/bin/app","command":"app --n 4"})J" "\n";
constexpr const char* kLaunch =
    R"J({"type":"launch","seq":1,"corr":10,"mangled":"_Z5saxpyifPKfPf","demangled":"saxpy(int, float, float const*, float*)",)J"
    R"J("grid":[16384,1,1],"block":[256,1,1],"regs":16,"smem_static":0,"smem_dynamic":0,"device":0,"context":1,)J"
    R"J("stream":13,"api":"cuLaunchKernel","selected":true})J" "\n";
constexpr const char* kKernel =
    R"J({"type":"kernel","corr":10,"graph_node":0,"start_ns":1000,"end_ns":41000,"mangled":"_Z5saxpyifPKfPf",)J"
    R"J("grid":[16384,1,1],"block":[256,1,1],"regs":16,"smem_static":0,"smem_dynamic":0,"device":0,"context":1,"stream":13})J" "\n";
constexpr const char* kCounters =
    R"J({"type":"counters","corr":10,"status":"collected","note":"","passes":6,"values":{"dram__sectors_read.sum":1048576,"gpu__time_duration.sum":40512}})J" "\n";

TEST_F(SpoolTest, LaunchKernelAndCountersJoinOnTheCorrelationId) {
  append("123.jsonl", std::string(kProcess) + kLaunch + kKernel);
  SpoolReader reader(dir_);
  EXPECT_TRUE(reader.poll().empty());  // no counters yet
  append("123.jsonl", kCounters);
  const auto arrived = reader.poll();
  ASSERT_EQ(arrived.size(), 1u);
  EXPECT_EQ(arrived[0].id.demangled, "saxpy(int, float, float const*, float*)");

  const auto launches = reader.launches();
  ASSERT_EQ(launches.size(), 1u);
  const ProfiledLaunch& l = launches[0];
  EXPECT_EQ(l.id.pid, 123);
  EXPECT_EQ(l.id.mangled, "_Z5saxpyifPKfPf");
  EXPECT_EQ(l.id.grid, (Dim3{16384, 1, 1}));
  EXPECT_EQ(l.id.block.count(), 256);
  EXPECT_EQ(l.id.cluster, (Dim3{0, 0, 0}));  // no cluster in the record
  EXPECT_EQ(l.id.registers_per_thread, 16);
  EXPECT_EQ(l.id.stream, 13u);
  EXPECT_EQ(l.id.process_seq, 1);
  EXPECT_EQ(l.id.api, "cuLaunchKernel");
  ASSERT_TRUE(l.duration_s.has_value());
  EXPECT_DOUBLE_EQ(*l.duration_s, 40e-6);  // (41000 - 1000) ns
  EXPECT_EQ(l.counter_status, CounterStatus::collected);
  EXPECT_EQ(l.passes, 6);
  ASSERT_NE(counter(l, "dram__sectors_read.sum"), nullptr);
  EXPECT_EQ(counter(l, "dram__sectors_read.sum")->value, 1048576.0);
  EXPECT_EQ(reader.selected(), 1);
  ASSERT_EQ(reader.processes().size(), 1u);
  EXPECT_EQ(reader.processes()[0].command, "app --n 4");
}

TEST_F(SpoolTest, ALineIsReadOnlyOnceItsNewlineArrives) {
  const std::string line = std::string(kProcess) + kLaunch;
  append("123.jsonl", line.substr(0, line.size() - 20));
  SpoolReader reader(dir_);
  reader.poll();
  EXPECT_TRUE(reader.launches().empty());
  append("123.jsonl", line.substr(line.size() - 20));
  reader.poll();
  EXPECT_EQ(reader.launches().size(), 1u);
}

TEST_F(SpoolTest, GraphKernelsAreNamedByTheActivityRecordAndOrderedByStart) {
  append("123.jsonl", std::string(kProcess) + kLaunch + kKernel);
  append("123.jsonl",
         R"J({"type":"kernel","corr":11,"graph_node":7,"start_ns":500,"end_ns":900,"mangled":"_Z5scalePf",)J"
         R"J("grid":[4,1,1],"block":[128,1,1],"regs":8,"smem_static":0,"smem_dynamic":0,"device":0,"context":1,"stream":14})J"
         "\n");
  SpoolReader reader(dir_);
  reader.poll();
  reader.note_missing_counters();
  const auto launches = reader.launches();
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].id.mangled, "_Z5scalePf");  // started first
  EXPECT_EQ(launches[0].id.graph_node, 7u);
  EXPECT_EQ(launches[0].id.api, "cuGraphLaunch");
  EXPECT_NEAR(*launches[0].duration_s, 400e-9, 1e-15);
  // The selected direct launch whose counters never came says why.
  EXPECT_EQ(launches[1].counter_status, CounterStatus::not_requested);
  EXPECT_NE(launches[1].counter_note.find("ended before"), std::string::npos);
}

// A graph's kernel has no launch record: its counters line names it for the progress line (it
// had read "graph_kernel_node_0 (1x1x1 blocks of 1)").
TEST_F(SpoolTest, AGraphKernelsCountersNameItForTheProgressLine) {
  append("123.jsonl", std::string(kProcess) +
                          R"J({"type":"counters","corr":11,"graph_index":0,"mangled":"_Z5scalePf","grid":[4,1,1],)J"
                          R"J("block":[128,1,1],"status":"collected","note":"","passes":6,"values":{}})J"
                          "\n");
  SpoolReader reader(dir_);
  const auto arrived = reader.poll();
  ASSERT_EQ(arrived.size(), 1u);
  EXPECT_EQ(arrived[0].id.demangled, "scale(float*)");
  EXPECT_EQ(arrived[0].id.grid.x, 4u);
  EXPECT_EQ(arrived[0].id.block.x, 128u);
}

// The Activity record gives a direct launch its cluster shape (the launch callback does not know
// one fixed at compile time); a record without one leaves the launch without clusters.
TEST_F(SpoolTest, TheActivityRecordGivesADirectLaunchItsClusterShape) {
  std::string kernel = kKernel;
  kernel.replace(kernel.find("\"regs\""), 0, "\"cluster\":[2,1,1],");
  append("123.jsonl", std::string(kProcess) + kLaunch + kernel);
  SpoolReader reader(dir_);
  reader.poll();
  ASSERT_EQ(reader.launches().size(), 1u);
  EXPECT_EQ(reader.launches()[0].id.cluster, (Dim3{2, 1, 1}));
}

// A kernel in a conditional while-node's body, run three times by one graph launch: CUPTI gives
// its records no correlation and one graph node id (seen on an H100, tests/profile/hopper_app.cu).
// Each run is a launch of its own, with its duration and why it has no counters; they had all been
// dropped. The graph launch's own counters line has no kernel to name.
TEST_F(SpoolTest, KernelsAGraphRanFromTheDeviceAreEachKeptWithoutCounters) {
  std::string text = kProcess;
  for (int trip = 0; trip < 3; ++trip)
    text += fmt::format(R"J({{"type":"kernel","corr":0,"graph_node":12884901889,"start_ns":{},"end_ns":{},)J"
                        R"J("mangled":"_Z9loop_bodyiPfPiy","grid":[16384,1,1],"block":[256,1,1],"regs":16,)J"
                        R"J("smem_static":0,"smem_dynamic":0,"device":0,"context":1,"stream":13}})J"
                        "\n",
                        1000 * (trip + 1), 1000 * (trip + 1) + 600);
  text += R"J({"type":"counters","corr":42,"graph_index":-1,"status":"timing-only",)J"
          R"J("note":"counters not collected: the graph could not be copied for replay","passes":0,"values":{}})J"
          "\n";
  append("123.jsonl", text);
  SpoolReader reader(dir_);
  const auto arrived = reader.poll();
  ASSERT_EQ(arrived.size(), 1u);
  EXPECT_EQ(arrived[0].id.demangled, "");  // the progress line says "a CUDA graph's launch"
  EXPECT_EQ(arrived[0].id.api, "cuGraphLaunch");
  const auto launches = reader.launches();
  ASSERT_EQ(launches.size(), 3u);
  for (const auto& l : launches) {
    EXPECT_EQ(l.id.mangled, "_Z9loop_bodyiPfPiy");
    EXPECT_EQ(l.id.graph_node, 12884901889u);
    EXPECT_EQ(l.id.api, "cuGraphLaunch");
    ASSERT_TRUE(l.duration_s.has_value());
    EXPECT_NEAR(*l.duration_s, 600e-9, 1e-15);
    EXPECT_EQ(l.counter_status, CounterStatus::timing_only);
    EXPECT_NE(l.counter_note.find("from the device"), std::string::npos);
  }
}

// A program killed while its graphs were profiled (NVIDIA's jacobiCudaGraphs sample, stopped by a
// time limit after 396 graph launches) never delivered its Activity records: its graph kernels
// are kept from their counters records, named and shaped, without an Activity duration (the
// analysis then takes the replay's gpu__time_duration). They had all been lost.
TEST_F(SpoolTest, GraphKernelsOfAKilledProgramAreKeptFromTheirCounters) {
  append("123.jsonl", std::string(kProcess) +
                          R"J({"type":"counters","corr":11,"graph_index":0,"mangled":"_Z5scalePf","grid":[4,1,1],)J"
                          R"J("block":[128,1,1],"status":"collected","note":"","passes":6,)J"
                          R"J("values":{"dram__sectors_read.sum":64}})J" "\n" +
                          R"J({"type":"counters","corr":11,"graph_index":1,"mangled":"_Z4sumsPf","grid":[1,1,1],)J"
                          R"J("block":[32,1,1],"status":"collected","note":"","passes":6,"values":{}})J" "\n");
  SpoolReader reader(dir_);
  reader.poll();
  const auto launches = reader.launches();
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[0].id.mangled, "_Z5scalePf");
  EXPECT_EQ(launches[0].id.pid, 123);
  EXPECT_EQ(launches[0].id.api, "cuGraphLaunch");
  EXPECT_EQ(launches[0].id.grid.x, 4u);
  EXPECT_FALSE(launches[0].duration_s.has_value());
  EXPECT_EQ(launches[0].counter_status, CounterStatus::collected);
  ASSERT_NE(counter(launches[0], "dram__sectors_read.sum"), nullptr);
  EXPECT_NE(launches[0].counter_note.find("no Activity-API duration"), std::string::npos);
  EXPECT_EQ(launches[1].id.mangled, "_Z4sumsPf");
}

TEST_F(SpoolTest, ATornLastLineOfAKilledProcessIsIgnored) {
  append("9.jsonl", std::string(kProcess) + kLaunch + "{\"type\":\"kernel\",\"corr\":10,\"start");
  SpoolReader reader(dir_);
  reader.poll();
  EXPECT_EQ(reader.launches().size(), 1u);
}

}  // namespace
}  // namespace roofline
